import DossierCore
import Foundation

/// Reads CSV exports of tracking apps and spreadsheets: one record per row, columns mapped by
/// their headers (English or Korean, units in the header converted) and by their values (a
/// column of names, a column of dates under any header, each date column's day-month order), or
/// one profile per row when the header describes subjects (name, born, species...). Each file
/// says how it was read, in one line (`CSVReading`).
public struct CSVImporter: Importer {
    public let name = "csv"
    public let summary = "CSV exports: records by header (date, name, kind, amounts with units) or subject profiles"

    public init() {}

    /// Text whose first lines split into fields, with a header that names a date column or
    /// describes subjects, or a column whose values are dates under a header that is none: a
    /// notepad log with commas in it is not a CSV file.
    public func canRead(head: [UInt8]) -> Bool {
        guard TextSniffer.isText(head), let lines = CSVImporter.sampleLines(head), lines.count >= 2,
              let (header, rows) = SampleRows(lines: lines).headerAndRows()
        else { return false }
        let columns = CSVColumns(header: header, decimalComma: false).withEndAsDate
        return CSVImporter.hasDateColumn(columns) || ProfileColumns(header: header) != nil
            || columns.dateColumnByValues(in: rows) != nil
            // An export whose first section has no dates, and a later one does (`=== BEGIN Feedings ===`).
            || rows.indices.dropLast().contains { index in
                guard case .marker? = CSVSectionStart(row: CSVRow(line: 0, fields: rows[index]), afterBreak: false) else { return false }
                return CSVImporter.hasDateColumn(CSVColumns(header: rows[index + 1], decimalComma: false).withEndAsDate)
            }
    }

    public func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        let resources = try RecordImportResources.of(context)
        var reader = try CSVReader(source: input.source)
        guard var header = try reader.next() else { return }
        var headerName = reader.title.flatMap(CSVImporter.sectionName)
        if let profiles = ProfileColumns(header: header.fields) {
            // A table of profiles may be the first of an export's sections (Hatch's `Baby`,
            // then `Feedings`): a records table's header after it starts the rest.
            var breaks = CSVSectionBreaks(headerLine: header.line)
            var recordsTable: (header: CSVRow, name: String?)?
            while let row = try reader.next() {
                switch breaks.start(of: row, dated: CSVImporter.hasDate(row)) {
                case .header? where ProfileColumns(header: row.fields) == nil:
                    recordsTable = (row, breaks.takeMarker())
                case .marker?, .end?:
                    continue
                default:
                    switch profiles.profile(from: row) {
                    case .success(let profile): try sink.accept(.custom(SubjectProfileItem(profile: profile, source: input.source)))
                    case .failure(let problem): sink.report(problem.description)
                    }
                    continue
                }
                break
            }
            guard let recordsTable else { return }
            (header, headerName) = recordsTable
        }
        let classifier = context.resources.value(KeywordClassifier.self) { KeywordClassifier(table: resources.keywords) }
        // A file names a few subjects and kinds on row after row: each is looked up once.
        var subjects = BoundedMemo<Subject?>()
        var kinds = BoundedMemo<String>()
        let settler = resources.unitSettler
        let path = input.source.path
        // Rows read ahead to judge a table by (and filed after, in order): their values may show
        // which column holds the dates or names the subjects, whatever its header says.
        var ahead: [CSVRow] = []
        var aheadIndex = 0
        func nextRow() throws -> CSVRow? {
            if aheadIndex < ahead.count {
                defer { aheadIndex += 1 }
                return ahead[aheadIndex]
            }
            return try reader.next()
        }
        let scan = CSVTableScan(source: input.source, dialect: reader.dialect)
        /// The table under `header`: its first rows read ahead, and every date column's order
        /// decided from all of its values before a row of it is filed.
        func begin(_ header: CSVRow, name: String?) throws -> CSVTable {
            ahead = Array(ahead[aheadIndex...])
            aheadIndex = 0
            var sample: [CSVRow] = []
            for row in ahead where sample.count < CSVImporter.subjectSampleRows { sample.append(row) }
            while sample.count < CSVImporter.subjectSampleRows, let row = try reader.next() {
                ahead.append(row)
                sample.append(row)
            }
            // A table's sample ends where the next one starts.
            var sampleBreaks = CSVSectionBreaks(headerLine: header.line)
            if let end = sample.firstIndex(where: { sampleBreaks.start(of: $0, dated: CSVImporter.hasDate($0)) == .header }) {
                sample.removeSubrange(end...)
            }
            var table = try CSVTable(header: header, dialect: reader.dialect, name: name, sample: sample,
                                     fileName: input.source.fileName, resources: resources, classifier: classifier,
                                     requestedKind: context.requestedKind,
                                     sourceSubject: sink.sourceSubject)
            let monthFirst = resources.settings.monthFirst
            let findings = try scan.decide(columns: table.columns, firstRows: sample, monthFirst: monthFirst,
                                                 headerLine: header.line)
            table.columns = table.columns.withDateOrders(findings.orders, undecided: CSVDateOrder(monthFirst: monthFirst))
            // A role the first rows showed, that the whole table does not bear out, is dropped:
            // the column is kept as text, and the file says so.
            for (index, tally) in findings.rolesNotBorneOut.sorted(by: { $0.key < $1.key }) {
                let column = table.columns.columns[index]
                sink.report("column '\(column.header)' looked like \(CSVImporter.roleName(column.role)) in its first rows, but only "
                            + "\(CSVReading.grouped(tally.matching)) of its \(CSVReading.grouped(tally.values)) values are: kept as text")
                table.columns = table.columns.withRoleDropped(at: index)
            }
            guard CSVImporter.hasDateColumn(table.columns) else { throw CSVImportError.noDateColumn(header: header.fields) }
            return table
        }
        var tables: [CSVTable] = []
        var table: CSVTable
        do {
            table = try begin(header, name: headerName)
        } catch CSVImportError.noDateColumn(let columns) {
            // An export whose first section holds no dates (Hatch's `Baby`: name, born, sex):
            // said as one problem, and the sections after it read.
            var skipping = CSVSectionBreaks(headerLine: header.line)
            var last = header.line
            var next: (row: CSVRow, name: String?)?
            while let row = try nextRow() {
                switch skipping.start(of: row, dated: CSVImporter.hasDate(row)) {
                case .header?:
                    next = (row, skipping.takeMarker())
                case .marker?, .end?:
                    continue
                case nil:
                    last = row.lastLine
                    continue
                }
                break
            }
            guard let next else { throw CSVImportError.noDateColumn(header: columns) }
            sink.report("lines \(header.line)-\(last): the table \(headerName.map { "'\($0)' " } ?? "")under "
                        + "'\(columns.joined(separator: ","))' has no date column; its rows are not filed (the kept copy holds them)")
            table = try begin(next.row, name: next.name)
            header = next.row
        }
        if let why = table.whyNoCareRecords {
            // One problem for the file, not one for each of its rows: nothing in it is read.
            sink.report(SourceProblem(line: nil, reason: "not a care record: \(why); nothing in it is filed", isUndated: true))
            return
        }
        var breaks = CSVSectionBreaks(headerLine: header.line)
        /// A row that looked like a marker, but no header followed it: a row with no date.
        func reportMarker(_ row: CSVRow?) {
            guard let row else { return }
            table.reading.rows += 1
            table.reading.rowsWithProblems += 1
            sink.report("line \(row.line): no date in this row, and no table's header follows it")
        }
        while let row = try nextRow() {
            var values = table.columns.values(of: row)
            let waiting = breaks.pendingMarker?.row
            switch breaks.start(of: row, dated: values.date != nil) {
            case .marker?:
                reportMarker(waiting)
                continue
            case .end?:
                reportMarker(breaks.abandonedMarker())
                continue
            case .header?:
                let name = breaks.takeMarker()
                tables.append(table)
                table = try begin(row, name: name)
                breaks = CSVSectionBreaks(headerLine: row.line)
                continue
            case nil:
                reportMarker(breaks.abandonedMarker())
            }
            guard let startDate = values.date else {
                table.reading.rows += 1
                for problem in values.problems { sink.report("line \(row.line): \(problem)") }
                sink.report("line \(row.line): no date in this row")
                table.reading.rowsWithProblems += 1
                continue
            }
            table.reading.rows += 1
            for problem in values.problems { sink.report("line \(row.line): \(problem)") }
            // Cells are trimmed, and empty ones left out: a name or kind here is never "".
            var subject = table.headerSubject
            if let name = values.subjectName {
                guard let named = subjects.answer(name, resources.directory.subject(named:)) else {
                    sink.report(UnknownName.problem(line: row.line, name: name, directory: resources.directory).description)
                    table.reading.rowsWithProblems += 1
                    continue
                }
                subject = named
            }
            var kind = values.kind.map { cell in
                kinds.answer(cell) { classifier.classify($0).kind ?? CSVImporter.slug($0) }
            } ?? table.kind
            // `Daily total` in a feeding.csv's note: the day's sum, never one more feeding.
            if table.kindIsTablesGuess, let note = values.note, classifier.classify(note).kind == "summary" { kind = "summary" }
            // With an end beside the start: a shed is dated when it was complete, anything else
            // when it began; both with their times give the entry's duration.
            var date = startDate
            var spanProblem = false
            if let end = values.endDate {
                let span = EntrySpan(from: startDate, to: end, in: context.timeZone)
                switch span {
                case .minutes(let minutes):
                    if !values.measurements.contains(where: { $0.unit == .minutes }) {
                        values.measurements.append(RecordMeasurement(name: "duration", value: minutes, unit: .minutes))
                    }
                case .endBeforeStart:
                    sink.report("line \(row.line): it ends (\(end.iso8601)) before it starts (\(startDate.iso8601)); no duration taken")
                    spanProblem = true
                case .longerThanAWeek(let days) where kind != "shedding":
                    sink.report("line \(row.line): it ends \(days) days after it starts; no duration taken")
                    spanProblem = true
                case .longerThanAWeek, .withoutTimes:
                    break
                }
                // The date the record is not filed under is kept on it, so the row loses nothing.
                if kind == "shedding" && span != .endBeforeStart {
                    date = end
                    values.fields["start"] = startDate.iso8601
                } else {
                    values.fields["end"] = end.iso8601
                }
            }
            var otherProblems = spanProblem
            /// The unit of a number its cell and column left unsaid, settled or reported.
            func settle(_ number: UnitlessMeasurement, of measured: Subject?) -> RecordMeasurement? {
                let decision = settler.settle(number, kind: kind, subject: measured,
                                              subjectClass: measured.flatMap { resources.subjectClass(of: $0, on: date) },
                                              unitCell: values.unitText.map { (table.columns.column(.unit)?.header ?? "", $0) },
                                              note: values.note)
                table.reading.count(decision, in: number.header)
                switch decision {
                case .settled(let measurement, _, _):
                    return measurement
                case .unsettled(let reason):
                    sink.report("line \(row.line): \(reason)")
                    otherProblems = true
                    return nil
                }
            }
            for number in values.unitless where !table.isWide {
                if let measurement = settle(number, of: subject ?? sink.sourceSubject) {
                    values.measurements.append(measurement)
                } else {
                    values.fields[number.header] = number.written
                }
            }
            if table.isWide {
                // A wide sheet's row: one record for each subject's column that holds a number.
                // The row's other cells are every such record's, as text: a count or a duration
                // beside several animals' weights is no one animal's measurement.
                var shared = values.fields
                for column in table.columns.columns {
                    switch column.role {
                    case .measurement, .unitlessMeasurement, .subKind, .endDate:
                        let cell = row.field(column.index).trimmedWhitespace
                        if !cell.isEmpty { shared[column.header] = cell }
                    default: break
                    }
                }
                if values.series.isEmpty, !shared.isEmpty || values.note != nil {
                    sink.report("line \(row.line): no subject's column holds a value; the row's other cells are kept only in the source's copy")
                    table.reading.rowsWithProblems += 1
                    continue
                }
                for value in values.series {
                    var measurements: [RecordMeasurement] = []
                    var fields = shared
                    if let measurement = value.measurement {
                        measurements.append(measurement)
                    } else if let number = value.unitless {
                        if let settled = settle(number, of: value.subject) {
                            measurements.append(RecordMeasurement(name: UnitSettler.what(settled.unit), value: settled.value, unit: settled.unit))
                        } else {
                            fields[kind ?? "value"] = number.written
                        }
                    }
                    table.reading.records += 1
                    try sink.accept(.record(RecordDraft(
                        source: RecordSource(path: path, line: row.line), subject: value.subject, date: date, kind: kind,
                        body: values.note?[...] ?? "", text: values.note ?? value.text, measurements: measurements, fields: fields)))
                }
                if !values.problems.isEmpty || otherProblems { table.reading.rowsWithProblems += 1 }
                continue
            }
            if !values.problems.isEmpty || otherProblems { table.reading.rowsWithProblems += 1 }
            table.reading.records += 1
            try sink.accept(.record(values.draft(source: RecordSource(path: path, line: row.line), subject: subject, date: date,
                                                 kind: kind, rowText: CSVImporter.text(of: row))))
        }
        tables.append(table)
        // Tables of one name (an export's many `Feedings` sections) are said once, their counts
        // summed: the line stays one a person reads.
        var named: [(table: CSVTable, count: Int)] = []
        for table in tables {
            if let name = table.name, let index = named.firstIndex(where: { $0.table.name == name }) {
                named[index].table.reading.add(table.reading)
                named[index].count += 1
            } else {
                named.append((table, 1))
            }
        }
        for (table, _) in named {
            for guess in table.reading.guessedUnits { sink.report(guess) }
        }
        sink.describe(reading: named.map { table, count in
            let line = table.reading.line(columns: table.columns, kind: table.kindSource)
            let label = table.name.map { count > 1 ? "\($0), \(CSVReading.grouped(count)) tables" : $0 } ?? "table at line \(table.headerLine)"
            return tables.count > 1 ? "[\(label)] \(line)" : line
        }.joined(separator: " | "))
    }

    /// What a role is called in a message.
    static func roleName(_ role: CSVColumnRole) -> String {
        switch role {
        case .unit: return "units"
        case .series: return "a subject's numbers"
        default: return "what it was taken for"
        }
    }

    /// Whether any of a row's cells holds a date (for telling a table's rows from the start of
    /// the next, before the table's columns are known).
    static func hasDate(_ row: CSVRow) -> Bool {
        row.fields.contains { CSVTimestamp.parse($0.trimmedWhitespace)?.hasDate == true }
    }

    /// The name a marker line gives the table under it (`=== BEGIN Feedings ===` -> `Feedings`).
    static func sectionName(_ title: String) -> String? {
        if case .marker(let name)? = CSVSectionStart(row: CSVRow(line: 0, fields: [title]), afterBreak: false) { return name }
        return nil
    }

    /// How many rows are looked at to find the subject column, or a date column, by its values.
    static let subjectSampleRows = 32

    /// The column most of whose values (in the rows given) are subjects' names or aliases, if
    /// one is: the subject column, whatever its header. A column headed as the subject's keeps
    /// that role unless another holds the names.
    static func subjectColumn(in rows: [CSVRow], columns: CSVColumns, directory: SubjectDirectory) -> Int? {
        var best: (index: Int, named: Int)?
        for column in columns.columns {
            switch column.role {
            case .date, .time, .endDate, .measurement, .unitlessMeasurement, .unit, .subKind, .series: continue
            case .subject, .kind, .note, .text: break
            }
            var values = 0, named = 0
            for row in rows where column.index < row.count {
                let cell = row.field(column.index).trimmedWhitespace
                guard !cell.isEmpty else { continue }
                values += 1
                if directory.subject(named: cell) != nil { named += 1 }
            }
            // Four in five: a note that names a pet now and then is no subject column.
            guard values > 0, named * 5 >= values * 4, named > (best?.named ?? 0) else { continue }
            best = (column.index, named)
        }
        guard let best, columns.column(.subject)?.index != best.index else { return nil }
        return best.index
    }

    /// The subject a header cell names (`Mina,Time,Amount`: the export titled its first column
    /// with the child's name), when exactly one does.
    static func subjectNamedByHeader(_ columns: CSVColumns, directory: SubjectDirectory) -> Subject? {
        let named = Set(columns.columns.filter { $0.role == .text || $0.role == .kind }
            .compactMap { directory.subject(named: $0.header.trimmedWhitespace) })
        return named.count == 1 ? named.first : nil
    }

    /// A row without a note, as text: its fields, without the empty ones padding a short row.
    static func text(of row: CSVRow) -> String {
        var count = row.count
        while count > 0 && row.range(of: count - 1).isEmpty { count -= 1 }
        guard count > 0 else { return "" }
        let separator: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: " ")]
        // Built straight from the row's bytes, in one allocation.
        return row.bytes.withUnsafeBufferPointer { bytes in
            String(unsafeUninitializedCapacity: row.ends[count - 1] + separator.count * (count - 1)) { text in
                var written = 0
                for index in 0..<count {
                    if index > 0 {
                        written = text[written...].initialize(fromContentsOf: separator)
                    }
                    written = text[written...].initialize(fromContentsOf: bytes[row.range(of: index)])
                }
                return written
            }
        }
    }

    /// A date column, or a time column (which may hold whole timestamps, as baby trackers write).
    static func hasDateColumn(_ columns: CSVColumns) -> Bool {
        columns.column(.date) != nil || columns.column(.time) != nil
    }

    /// `sleep.csv` holds sleeps, `수유기록.csv` feedings, `weights.csv` weights (by the keyword
    /// table, the name's words also without a plural `s`); a file called `export.csv` says
    /// nothing, so its notes decide, or failing notes its name, in the singular, is the kind.
    static func kind(fromFileName fileName: String, classifier: KeywordClassifier, hasNotes: Bool) -> String? {
        if let kind = knownKind(fromFileName: fileName, classifier: classifier) { return kind }
        return hasNotes ? nil : slug(singular(withoutCopySuffix((fileName as NSString).deletingPathExtension)))
    }

    /// The kind the keyword table knows the file's name for (`weights.csv`: weight), if any.
    static func knownKind(fromFileName fileName: String, classifier: KeywordClassifier) -> String? {
        let stem = withoutCopySuffix((fileName as NSString).deletingPathExtension)
        return classifier.classify(stem).kind ?? classifier.classify(singular(stem)).kind
    }

    /// The name without what browsers and file managers add to a name they already hold:
    /// `BabyRecords (1)`, `weights-2`, `feeding copy`, `sleep_1`, `log copy 3` name the same
    /// kinds as `BabyRecords`, `weights`, `feeding`, `sleep` and `log`. A year (`log-2024`) stays.
    static func withoutCopySuffix(_ stem: String) -> String {
        var text = stem
        while true {
            let shorter = text
                .replacing(/\s*\(\d{1,3}\)$/, with: "")
                .replacing(/(?i)[ _-]+copy(?:[ _-]*\d{1,3})?$/, with: "")
                .replacing(/[ _-]\d{1,2}$/, with: "")
                .replacing(/([^\d\s_-])\d{1}$/) { $0.1 }
            guard shorter != text, !shorter.trimmedWhitespace.isEmpty else { return text }
            text = shorter
        }
    }

    /// Each English word of the text without a plural ending: `weights` -> `weight`,
    /// `diapers_log` -> `diaper_log`; `glass` and `bus` stay as they are.
    static func singular(_ text: String) -> String {
        var result = ""
        var word = ""
        func flush() {
            let lowered = word.lowercased()
            if lowered.count > 3, lowered.hasSuffix("s"), !lowered.hasSuffix("ss"), !lowered.hasSuffix("us"),
               word.unicodeScalars.allSatisfy({ $0.isASCII }) {
                word.removeLast()
            }
            result += word
            word = ""
        }
        for character in text {
            if character.isLetter { word.append(character) } else { flush(); result.append(character) }
        }
        flush()
        return result
    }

    /// A kind as records keep it: lowercase, words joined by "-".
    static func slug(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "_" }).joined(separator: "-")
    }

    /// The head's complete lines, decoded (UTF-8, CP949 or UTF-16 with a BOM); nil if it is none.
    static func sampleLines(_ head: [UInt8]) -> [String]? {
        var text: String?
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) {
            let littleEndian = head[0] == 0xFF
            let units = stride(from: 2, to: head.count - 1, by: 2).map { index -> UInt16 in
                littleEndian ? UInt16(head[index + 1]) << 8 | UInt16(head[index]) : UInt16(head[index]) << 8 | UInt16(head[index + 1])
            }
            text = String(decoding: units, as: UTF16.self)
        } else {
            let body = head.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(head.dropFirst(3)) : head
            let complete = body.lastIndex(of: 0x0A).map { Array(body[...$0]) } ?? body
            text = String(validating: complete, as: UTF8.self) ?? LineReader.decodeCP949(complete[...])
        }
        guard let text else { return nil }
        return text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map(String.init)
    }
}
