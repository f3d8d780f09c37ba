import DossierCore

/// How one CSV file was read, in the one line the import shows for it, so a person sees a
/// misreading at a glance: `feeds.csv: 4,100 rows -> 4,100 records, 0 problems; dates D/M/Y in
/// 'Date' (from 24/01/2024); kind from 'Type'; 'Amount (oz.)' -> ml (x29.5735)`.
struct CSVReading {
    var rows = 0
    var records = 0
    /// Rows not filed, each with at least one problem.
    var rowsWithProblems = 0
    /// How each unitless column's numbers were read, in the order the columns were met.
    private var unitOutcomes: [(header: String, outcomes: [(UnitOutcome, Int)])] = []

    /// One way a column's numbers without a unit were read.
    private enum UnitOutcome: Equatable {
        case settled(unit: String, measures: MeasurementUnit, reason: UnitDecision.Reason)
        case keptAsText

        var described: String {
            switch self {
            case .settled(let unit, _, .cell): return "\(unit) as the cells wrote it, by each row's kind"
            case .settled(let unit, _, .unitColumn(let header)): return "\(unit) from '\(header)'"
            case .settled(let unit, _, .note): return "\(unit) from the notes"
            case .settled(let unit, _, .configured(let key)): return "\(unit) as config/records.json says for '\(key)'"
            case .settled(let unit, _, .plausible(let subjectClass, _)): return "\(unit), the only unit plausible for \(subjectClass)"
            case .keptAsText: return "kept as text (see the problems)"
            }
        }
    }

    /// Another table's counts added to these (tables of one name said as one).
    mutating func add(_ other: CSVReading) {
        rows += other.rows
        records += other.records
        rowsWithProblems += other.rowsWithProblems
        for column in other.unitOutcomes {
            for (outcome, count) in column.outcomes { tally(outcome, count, in: column.header) }
        }
    }

    /// Counts one unitless number's outcome under its column.
    mutating func count(_ decision: UnitDecision, in header: String) {
        let outcome: UnitOutcome
        switch decision {
        case .settled(let measurement, let unit, let reason): outcome = .settled(unit: unit, measures: measurement.unit, reason: reason)
        case .unsettled: outcome = .keptAsText
        }
        tally(outcome, 1, in: header)
    }

    private mutating func tally(_ outcome: UnitOutcome, _ count: Int, in header: String) {
        let column = unitOutcomes.firstIndex { $0.header == header } ?? {
            unitOutcomes.append((header, []))
            return unitOutcomes.count - 1
        }()
        if let index = unitOutcomes[column].outcomes.firstIndex(where: { $0.0 == outcome }) {
            unitOutcomes[column].outcomes[index].1 += count
        } else {
            unitOutcomes[column].outcomes.append((outcome, count))
        }
    }

    /// A unit read by plausibility is a guess, however likely: one problem per column and unit
    /// says so, so the person can confirm it in the header or `config/records.json`.
    var guessedUnits: [String] {
        unitOutcomes.flatMap { column in
            column.outcomes.compactMap { outcome, count -> String? in
                guard case .settled(let unit, let measures, .plausible(let subjectClass, let range)) = outcome else { return nil }
                return "column '\(column.header)' has no unit: \(CSVReading.counted(count, "value")) read as \(unit), the only unit "
                    + "that makes \(count == 1 ? "it" : "each") plausible for \(subjectClass) (\(UnitSettler.bounds(range, measures)), "
                    + "\(range.source)); to be sure, say its unit in the header ('\(column.header) (\(unit))') or in "
                    + "config/records.json ({\"units\": {\"\(UnitSettler.what(measures))\": \"\(unit)\"}})"
            }
        }
    }

    /// Where the records' kind came from, as the line says it.
    enum KindSource {
        case column(String)
        case fileName(String)
        case sectionName(String)
        /// The measurement columns' names say it (`weight (g)`).
        case measurementColumn(String, String)
        case requested(String)
        case notes
    }

    func line(columns: CSVColumns, kind: KindSource) -> String {
        // A unit guessed for a column is one more problem, listed with the rows' own.
        var parts = ["\(CSVReading.counted(rows, "row")) -> \(CSVReading.counted(records, "record")), "
                     + "\(CSVReading.counted(rowsWithProblems + guessedUnits.count, "problem"))"]
        for column in columns.dateColumns {
            let byValues = column.foundByValues ? " (by its values)" : ""
            if let decision = columns.dateOrders[column.index] {
                let what = column.role == .endDate ? "ends" : "dates"
                parts.append("\(what) \(decision.order.pattern) in '\(column.header)'\(byValues) (\(decision.reason))")
            } else {
                let what = column.role == .time ? "times" : column.role == .endDate ? "ends" : "dates"
                parts.append("\(what) in '\(column.header)'\(byValues)")
            }
        }
        if let subject = columns.column(.subject) {
            parts.append("subjects in '\(subject.header)'" + (subject.foundByValues ? " (by its values)" : ""))
        }
        switch kind {
        case .column(let header): parts.append("kind from '\(header)'")
        case .fileName(let kind): parts.append("kind '\(kind)' from the file's name")
        case .sectionName(let kind): parts.append("kind '\(kind)' from the section's name")
        case .measurementColumn(let kind, let header): parts.append("kind '\(kind)' from '\(header)'")
        case .requested(let kind): parts.append("kind '\(kind)' as asked")
        case .notes: parts.append("kind from each row's note")
        }
        // A wide sheet keeps its other columns as text on each subject's record.
        let isWide = columns.columns.contains { if case .series = $0.role { true } else { false } }
        if !isWide, let subKind = columns.column(.subKind) { parts.append("sub-kind from '\(subKind.header)'") }
        let series = columns.columns.compactMap { column -> String? in
            guard case .series(let subject, let unit, let factor) = column.role else { return nil }
            return "'\(column.header)' -> \(subject)" + (unit.map { " in \($0.rawValue)" + (factor == 1 ? "" : " (x\(CSVReading.factor(factor)))") } ?? "")
        }
        if !series.isEmpty { parts.append("one column per subject: " + series.joined(separator: ", ")) }
        for column in columns.columns where !isWide {
            guard case .measurement(_, let unit, let factor) = column.role else { continue }
            parts.append("'\(column.header)' -> \(unit.rawValue)" + (factor == 1 ? "" : " (x\(CSVReading.factor(factor)))"))
        }
        for column in unitOutcomes {
            let outcomes = column.outcomes.map { outcome, count in
                column.outcomes.count == 1 ? outcome.described : "\(CSVReading.grouped(count)) \(outcome.described)"
            }
            parts.append("'\(column.header)' has no unit: " + outcomes.joined(separator: ", "))
        }
        // What was not understood shows too: `Weight (stone)` kept as text is a misreading to see.
        let text = columns.columns.filter { column in
            guard !column.header.trimmedWhitespace.isEmpty else { return false }
            switch column.role {
            case .text: return true
            case .measurement, .unitlessMeasurement, .subKind: return isWide
            default: return false
            }
        }.map { "'\($0.header)'" }
        if !text.isEmpty { parts.append("kept as text: " + text.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(grouped(count)) \(noun)\(count == 1 ? "" : "s")"
    }

    /// 4100 as `4,100`, whatever the machine's locale.
    static func grouped(_ count: Int) -> String {
        var digits = Array(String(count))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }

    private static func factor(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String((value * 1_000_000).rounded() / 1_000_000)
    }
}
