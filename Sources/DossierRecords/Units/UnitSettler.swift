import DossierCore
import Foundation

/// Settles the unit of a number an export wrote without one, in this order: a unit column on its
/// row, the same number with its unit in the row's note, the unit `config/records.json` names
/// (`{"units": {"weight": "kg"}}`, by the row's kind or the measurement's name), then the only
/// metric unit that makes it plausible for its subject's class (`PlausibleRange`). Otherwise it
/// is not settled, and the importer keeps the number as text and reports it: never a silent
/// guess. Imperial units are never guessed; they are read where they are written.
struct UnitSettler: Sendable {
    /// `config/records.json`'s `units`, by lowercased key.
    let configured: [String: String]

    init(configured: [String: String]) {
        self.configured = Dictionary(configured.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The units a metric keeper or parent writes for each dimension without thinking to say so.
    static let metricUnits: [MeasurementUnit: [(written: String, factor: Double)]] = [
        .grams: [("g", 1), ("kg", 1000)],
        .centimetres: [("mm", 0.1), ("cm", 1), ("m", 100)],
        .millilitres: [("ml", 1), ("l", 1000)],
        .minutes: [("min", 1), ("h", 60)],
    ]

    /// What a measurement called by one of the names `config/records.json` may use measures.
    static func dimension(named name: String) -> MeasurementUnit? {
        switch name {
        case "weight", "mass": return .grams
        case "length", "height": return .centimetres
        case "amount", "volume": return .millilitres
        case "duration": return .minutes
        default: return nil
        }
    }

    /// What a row's kind measures when its value column does not say (`Quantity`).
    static func dimension(ofKind kind: String?) -> MeasurementUnit? {
        switch kind {
        case "weight": return .grams
        case "height", "length": return .centimetres
        case "feeding": return .millilitres
        case "sleep", "bath": return .minutes
        default: return nil
        }
    }

    func settle(_ number: UnitlessMeasurement, kind: String?, subject: Subject?, subjectClass: SubjectClass?,
                unitCell: (header: String, text: String)?, note: String?) -> UnitDecision {
        let dimension = number.dimension ?? UnitSettler.dimension(ofKind: kind)
        guard number.value >= 0 else {
            return .unsettled("\(number.described) is below zero, which no \(dimension.map(UnitSettler.what) ?? "measurement") is; kept as text")
        }
        if let written = number.writtenUnit {
            guard let (unit, factor) = UnitSettler.meaning(of: written, in: dimension) else {
                return .unsettled("\(number.described) is in \(written), which does not measure "
                                  + "\(dimension.map { "a \(UnitSettler.what($0))" } ?? "what kind '\(kind ?? "")' does"); kept as text")
            }
            return settled(number, unit: unit, factor: factor, written: written, reason: .cell)
        }
        if let unitCell, let (unit, factor) = UnitSettler.meaning(of: unitCell.text, in: dimension) {
            return settled(number, unit: unit, factor: factor, written: unitCell.text.trimmedWhitespace, reason: .unitColumn(unitCell.header))
        }
        if let note, let (written, unit, factor) = UnitSettler.unitInNote(note, for: number.value, in: dimension) {
            return settled(number, unit: unit, factor: factor, written: written, reason: .note)
        }
        for key in keys(for: number, kind: kind, dimension: dimension) {
            guard let written = configured[key] else { continue }
            guard let (unit, factor) = UnitSettler.meaning(of: written, in: dimension) else { continue }
            // The library's unit for every such number: one far out of range is a typo or
            // another unit, and is not filed as 3.4 tonnes of baby.
            if let subjectClass, let range = PlausibleRange.of(unit, for: subjectClass), !range.contains(number.value * factor) {
                return .unsettled("\(number.described) has no unit; in \(written), as config/records.json says for '\(key)', it is "
                                  + "not plausible for \(subjectClass) (\(UnitSettler.bounds(range, unit)), \(range.source)); kept as text")
            }
            return settled(number, unit: unit, factor: factor, written: written, reason: .configured(key))
        }
        let configured = "config/records.json ({\"units\": {\"\(kind ?? CSVHeaderVocabulary.key(number.name))\": \"…\"}})"
        let hint = number.header.isEmpty ? "write its unit after the number, or name it in \(configured)"
            : "say its unit in the header ('\(number.name) (unit)') or in \(configured)"
        let about = "\(number.described) has no unit"
        guard let dimension else {
            return .unsettled("\(about), and \(kind.map { "kind '\($0)'" } ?? "the row's kind") does not say what it measures; kept as text: \(hint)")
        }
        guard let subject else {
            return .unsettled("\(about), and the row names no subject to judge it by; kept as text: \(hint)")
        }
        guard let subjectClass else {
            return .unsettled("\(about), and \(subject)'s class is not known (give it a species or class) to judge it by; "
                              + "kept as text: \(hint)")
        }
        let candidates = UnitSettler.metricUnits[dimension] ?? []
        guard let range = PlausibleRange.of(dimension, for: subjectClass) else {
            return .unsettled("\(about), and there is no plausible range of \(UnitSettler.what(dimension)) for "
                              + "\(subjectClass) to judge it by; kept as text: \(hint)")
        }
        if let note, let other = UnitSettler.unitsInNote(note, in: dimension).first {
            // `gave 2 oz, then 4 more` beside a 6: the note speaks of ounces, so 6 ml is no safe reading.
            return .unsettled("\(about), and the note speaks of \(other) for another number; kept as text: \(hint)")
        }
        let plausible = candidates.filter { range.contains(number.value * $0.factor) }
        guard plausible.count == 1, let only = plausible.first else {
            let units = (plausible.isEmpty ? candidates : plausible).map(\.written)
            let verdict = plausible.isEmpty ? "is plausible in none of \(UnitSettler.listed(units, "or"))"
                : "is plausible in \(UnitSettler.listed(units, "and"))"
            return .unsettled("\(about), and \(verdict) for \(subjectClass) "
                              + "(\(UnitSettler.bounds(range, dimension)), \(range.source)); kept as text: \(hint)")
        }
        return settled(number, unit: dimension, factor: only.factor, written: only.written, reason: .plausible(subjectClass, range))
    }

    private func settled(_ number: UnitlessMeasurement, unit: MeasurementUnit, factor: Double, written: String,
                         reason: UnitDecision.Reason) -> UnitDecision {
        let value = (number.value * factor * 10_000).rounded() / 10_000
        let decimals = RecordMeasurement.shownDecimals(ofWritten: number.written.utf8, convertedBy: factor)
        return .settled(RecordMeasurement(name: number.name, value: value, unit: unit, decimals: decimals), unit: written, reason: reason)
    }

    /// The keys `config/records.json` may name this number's unit by: the row's kind, the
    /// measurement's name, and what its dimension is called (`weight`, `length`, `amount`).
    private func keys(for number: UnitlessMeasurement, kind: String?, dimension: MeasurementUnit?) -> [String] {
        var keys: [String] = []
        if let kind { keys.append(kind.lowercased()) }
        keys.append(number.name.lowercased())
        keys.append(CSVHeaderVocabulary.key(number.name))
        if let dimension { keys.append(UnitSettler.what(dimension)) }
        return keys
    }

    /// What `written` is in the unit records keep for `dimension`; with no dimension, the first
    /// thing it may measure (an ounce is a fluid ounce unless the row weighs something).
    static func meaning(of written: String, in dimension: MeasurementUnit?) -> (MeasurementUnit, Double)? {
        let meanings = CSVHeaderVocabulary.meanings(of: written.trimmedWhitespace)
        if let dimension { return meanings.first { $0.unit == dimension }.map { ($0.unit, $0.factor) } }
        return meanings.first { $0.unit != .count }.map { ($0.unit, $0.factor) }
    }

    /// The unit written after `value` in a note (`8.2 oz formula`, `gave 120ml`), when it measures
    /// `dimension`: the note said what the value column did not.
    static func unitInNote(_ note: String, for value: Double, in dimension: MeasurementUnit?)
        -> (written: String, unit: MeasurementUnit, factor: Double)? {
        for (number, word) in numbersAndWords(in: note) where abs(number - value) < 1e-9 {
            guard let (unit, factor) = meaning(of: word, in: dimension) else { continue }
            return (word, unit, factor)
        }
        return nil
    }

    /// Each number a note writes, with the word right after it (`gave 2 oz` -> (2, oz)).
    private static func numbersAndWords(in note: String) -> [(number: Double, word: String)] {
        note.matches(of: /(\d+(?:[.,]\d+)?)\s*([^\d\s.,;:!?()\[\]]+)/).compactMap { match in
            Double(match.1.replacingOccurrences(of: ",", with: ".")).map { ($0, String(match.2)) }
        }
    }

    /// The units of `dimension` a note writes after any number.
    static func unitsInNote(_ note: String, in dimension: MeasurementUnit) -> [String] {
        numbersAndWords(in: note).map(\.word).filter { meaning(of: $0, in: dimension) != nil }
    }

    /// How a dimension is called in messages and `config/records.json` keys.
    static func what(_ dimension: MeasurementUnit) -> String {
        switch dimension {
        case .grams: return "weight"
        case .centimetres: return "length"
        case .millilitres: return "amount"
        case .minutes: return "duration"
        case .count: return "count"
        }
    }

    static func bounds(_ range: PlausibleRange, _ dimension: MeasurementUnit) -> String {
        func shown(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
        switch dimension {
        case .grams where range.upper >= 1000: return "\(shown(range.lower)) g to \(shown(range.upper / 1000)) kg"
        case .minutes where range.upper >= 60: return "\(shown(range.lower)) min to \(shown(range.upper / 60)) h"
        default: return "\(shown(range.lower)) to \(shown(range.upper)) \(dimension.rawValue)"
        }
    }

    private static func listed(_ words: [String], _ conjunction: String) -> String {
        words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " \(conjunction) " + words.last!
    }
}

// MARK: - SubjectClass

/// What a subject is, as far as what its measurements can be: a child, or an animal of one of
/// the species table's classes (reptile, amphibian, arthropod, mammal, bird, fish).
enum SubjectClass: Hashable, Sendable, CustomStringConvertible {
    case child
    /// A child under two years old on the record's date (the profile gives the birth date):
    /// the WHO standards' narrower bounds, so a 150 with no unit is no baby's weight in kg.
    case infant
    case animal(String)

    /// A child by its kind; a pet by the class its profile names, or its species' class in the
    /// built-in table; nil for a pet of no known class.
    init?(subject: Subject, profile: SubjectProfile?) {
        switch subject.kind {
        case .children:
            self = .child
        case .pets:
            let named = profile?.animalClass.flatMap { AnimalClassNames.canonical($0) }
            let bySpecies = profile?.species.flatMap { SpeciesTable.builtIn.match($0)?.entry.animalClass }
            guard let animalClass = named ?? bySpecies else { return nil }
            self = .animal(animalClass)
        }
    }

    var description: String {
        switch self {
        case .child: return "a child"
        case .infant: return "a child under two"
        case .animal(let animalClass): return animalClass.first.map { "aeiou".contains($0) } == true ? "an \(animalClass)" : "a \(animalClass)"
        }
    }
}
