import DossierCore
import Foundation

/// Walks a loaded property list and hands over what its shape says it is.
struct PropertyListContent {
    let source: SourceFile
    let sink: any ItemSink
    let resources: RecordImportResources
    let context: PipelineContext
    var entryNumber = 0

    static let profileKeys: [String: SubjectKind?] = [
        "profiles": nil, "subjects": nil, "pets": .pets, "animals": .pets, "children": .children, "kids": .children,
        "babies": .children, "반려동물": .pets, "아이들": .children,
    ]
    static let recordKeys: Set<String> = ["records", "entries", "logs", "log", "diary", "기록", "일지"]
    static let taxonomyKeys: Set<String> = ["taxonomy", "species", "classes", "분류", "종"]

    mutating func read(_ root: Any) throws {
        if let array = root as? [Any] {
            return try readList(array, kind: nil)
        }
        guard let dictionary = root as? [String: Any] else {
            throw PropertyListImportError.unknownShape("its top level is a single value, not a dictionary or an array")
        }
        var understood = false
        for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
            let lowered = key.lowercased()
            if let kind = PropertyListContent.profileKeys[lowered], let list = value as? [Any] {
                try readProfiles(list, kind: kind)
                understood = true
            } else if PropertyListContent.recordKeys.contains(lowered) {
                if let list = value as? [Any] { try readRecords(list) } else if let dated = value as? [String: Any] { try readDated(dated) }
                understood = true
            } else if PropertyListContent.taxonomyKeys.contains(lowered), let taxonomy = value as? [String: Any] {
                try readTaxonomy(taxonomy)
                understood = true
            }
        }
        if understood { return }
        if !dictionary.isEmpty, dictionary.keys.allSatisfy({ ProfileFields.date($0, timeZone: context.timeZone) != nil }) {
            return try readDated(dictionary)
        }
        if dictionary.keys.contains(where: { ProfileFields.field(for: $0) == .name }) {
            return try readProfiles([dictionary], kind: nil)
        }
        let entries = SpeciesTable.entries(fromTaxonomy: dictionary)
        if !entries.isEmpty { return try sink.accept(.custom(SpeciesEntriesItem(entries: entries, source: source))) }
        throw PropertyListImportError.unknownShape(
            "its keys (\(dictionary.keys.sorted().prefix(6).joined(separator: ", "))) are not profiles, a taxonomy or dated records")
    }

    /// An array: records if its dictionaries have dates, else profiles.
    private mutating func readList(_ list: [Any], kind: SubjectKind?) throws {
        let dictionaries = list.compactMap { $0 as? [String: Any] }
        guard !dictionaries.isEmpty else {
            throw PropertyListImportError.unknownShape("its top level is an array of plain values, not dictionaries")
        }
        let dated = dictionaries.contains { $0.keys.contains { PropertyListContent.isDateKey($0) } }
        if dated { try readRecords(list) } else { try readProfiles(list, kind: kind) }
    }

    private mutating func readProfiles(_ list: [Any], kind: SubjectKind?) throws {
        for element in list {
            entryNumber += 1
            guard let values = element as? [String: Any] else {
                sink.report("entry \(entryNumber): not a dictionary")
                continue
            }
            switch ProfileFields.profile(from: values, defaultKind: kind, timeZone: context.timeZone) {
            case .success(let profile): try sink.accept(.custom(SubjectProfileItem(profile: profile, source: source)))
            case .failure(let failure): sink.report("entry \(entryNumber): not a profile: \(failure)")
            }
        }
    }

    private mutating func readTaxonomy(_ taxonomy: [String: Any]) throws {
        let entries = SpeciesTable.entries(fromTaxonomy: taxonomy)
        guard !entries.isEmpty else { throw PropertyListImportError.unknownShape("its taxonomy holds no species") }
        try sink.accept(.custom(SpeciesEntriesItem(entries: entries, source: source)))
    }

    /// `[{"date": ..., "kind": ..., "note": ..., "name": ...}, ...]`
    private mutating func readRecords(_ list: [Any]) throws {
        for element in list {
            entryNumber += 1
            guard let values = element as? [String: Any] else {
                sink.report("entry \(entryNumber): not a dictionary")
                continue
            }
            try readRecord(values, date: nil)
        }
    }

    /// `{"2023-05-01": "fed 3 crickets", "2023-05-03": ["탈피", "체중 45g"], ...}`
    private mutating func readDated(_ dictionary: [String: Any]) throws {
        for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
            guard let date = ProfileFields.date(key, timeZone: context.timeZone) ?? RecordDate(iso8601: key) else {
                entryNumber += 1
                sink.report("entry \(entryNumber): '\(key)' is not a date")
                continue
            }
            let values = (value as? [Any]) ?? [value]
            for element in values {
                entryNumber += 1
                if let text = element as? String {
                    try accept(text: text, date: date, kind: nil, subjectName: nil, measurements: [])
                } else if let fields = element as? [String: Any] {
                    try readRecord(fields, date: date)
                } else {
                    sink.report("entry \(entryNumber): not text or a dictionary")
                }
            }
        }
    }

    private mutating func readRecord(_ values: [String: Any], date given: RecordDate?) throws {
        let date = given ?? values.first(where: { PropertyListContent.isDateKey($0.key) }).flatMap { recordDate($0.value) }
        guard let date else {
            sink.report("entry \(entryNumber): no date")
            return
        }
        let text = values.first { ["note", "text", "memo", "메모", "내용", "description"].contains($0.key.lowercased()) }?.value as? String
        let kind = values.first { ["kind", "type", "category", "종류"].contains($0.key.lowercased()) }?.value as? String
        let name = values.first { ["name", "subject", "pet", "child", "이름"].contains($0.key.lowercased()) }?.value as? String
        var measurements: [RecordMeasurement] = []
        var unitless: [UnitlessMeasurement] = []
        var fields: [String: String] = [:]
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            let role = CSVColumns.role(of: key)
            let number = (value as? NSNumber)?.doubleValue ?? Double("\(value)")
            if case .measurement(let measurementName, let unit, let factor) = role, let number {
                measurements.append(RecordMeasurement(
                    name: measurementName, value: (number * factor * 10_000).rounded() / 10_000, unit: unit,
                    decimals: RecordMeasurement.shownDecimals(of: RecordMeasurement.decimals(written: "\(number)".utf8),
                                                              convertedBy: factor)))
            } else if case .unitlessMeasurement(let measurementName, let dimension) = role, let number {
                unitless.append(UnitlessMeasurement(header: key, name: measurementName, dimension: dimension, value: number,
                                                    written: "\(value)"))
            } else if case .text = role, let string = value as? String ?? (value as? NSNumber).map({ "\($0)" }) {
                fields[key] = string
            }
        }
        try accept(text: text ?? kind ?? "", date: date, kind: kind, subjectName: name, measurements: measurements,
                   unitless: unitless, fields: fields)
    }

    private func accept(text: String, date: RecordDate, kind: String?, subjectName: String?,
                        measurements: [RecordMeasurement], unitless: [UnitlessMeasurement] = [],
                        fields: [String: String] = [:]) throws {
        var subject: Subject?
        if let subjectName {
            guard let named = resources.directory.subject(named: subjectName) else {
                sink.report("entry \(entryNumber): \(UnknownName.problem(line: entryNumber, name: subjectName, directory: resources.directory).reason)")
                return
            }
            subject = named
        }
        let classifier = context.resources.value(KeywordClassifier.self) { KeywordClassifier(table: resources.keywords) }
        let normalKind = kind.flatMap { classifier.classify($0).kind ?? CSVImporter.slug($0) } ?? context.requestedKind
        var measurements = measurements, fields = fields
        // A `weight` of 8.3 says no unit: settled as a CSV column's would be, or kept as text and reported.
        for number in unitless {
            let measured = subject ?? sink.sourceSubject
            switch resources.unitSettler.settle(number, kind: normalKind, subject: measured,
                                                subjectClass: measured.flatMap { resources.subjectClass(of: $0, on: date) },
                                                unitCell: nil, note: text) {
            case .settled(let measurement, let unit, .plausible(let subjectClass, _)):
                measurements.append(measurement)
                sink.report("entry \(entryNumber): '\(number.header)' \(number.written) has no unit: read as \(unit), the only unit "
                            + "plausible for \(subjectClass); to be sure, name it in config/records.json")
            case .settled(let measurement, _, _):
                measurements.append(measurement)
            case .unsettled(let reason):
                fields[number.header] = number.written
                sink.report("entry \(entryNumber): \(reason)")
            }
        }
        try sink.accept(.record(RecordDraft(source: RecordSource(path: source.path, line: entryNumber), subject: subject,
                                            date: date, kind: normalKind, body: text[...], text: text,
                                            measurements: measurements, fields: fields)))
    }

    static func isDateKey(_ key: String) -> Bool {
        ["date", "day", "timestamp", "datetime", "time", "날짜", "일시", "일자"].contains(key.lowercased())
    }

    /// A plist date (with its time, in this machine's zone) or a date written as text in any
    /// form a CSV timestamp may take.
    func recordDate(_ value: Any) -> RecordDate? {
        ProfileFields.date(value, timeZone: context.timeZone) ?? (value as? String).flatMap { CSVTimestamp.parse($0)?.recordDate }
    }
}
