import DossierCore
import Foundation

/// Reads CSV exports of tracking apps and spreadsheets: one record per row, columns mapped by
/// their headers (English or Korean, units in the header converted), or one profile per row
/// when the header describes subjects (name, born, species...).
public struct CSVImporter: Importer {
    public let name = "csv"
    public let summary = "CSV exports: records by header (date, name, kind, amounts with units) or subject profiles"

    public init() {}

    /// Text whose first lines split into the same number of fields, with a header that names a
    /// date column or describes subjects: a notepad log with commas in it is not a CSV file.
    public func canRead(head: [UInt8]) -> Bool {
        guard TextSniffer.isText(head), let lines = CSVImporter.sampleLines(head), lines.count >= 2 else { return false }
        var reader = SampleRows(lines: lines)
        guard let header = reader.header() else { return false }
        return CSVImporter.hasDateColumn(CSVColumns(header: header, decimalComma: false)) || ProfileColumns(header: header) != nil
    }

    public func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        let resources = try RecordImportResources.of(context)
        var reader = try CSVReader(path: input.source.readPath)
        guard let header = try reader.next() else { return }
        if let profiles = ProfileColumns(header: header.fields) {
            while let row = try reader.next() {
                switch profiles.profile(from: row) {
                case .success(let profile): try sink.accept(.custom(SubjectProfileItem(profile: profile, source: input.source)))
                case .failure(let problem): sink.report(problem.description)
                }
            }
            return
        }
        let columns = CSVColumns(header: header, dialect: reader.dialect)
        guard CSVImporter.hasDateColumn(columns) else {
            throw CSVImportError.noDateColumn(header: header.fields)
        }
        let fileKind = context.requestedKind
            ?? (columns.column(.kind) == nil ? CSVImporter.kind(fromFileName: input.source.fileName, keywords: resources.keywords,
                                                                 hasNotes: columns.column(.note) != nil) : nil)
        let classifier = try context.resources.value(KeywordClassifier.self) { KeywordClassifier(table: resources.keywords) }
        // A file names a few subjects and kinds on row after row: each is looked up once.
        var subjects = BoundedMemo<Subject?>()
        var kinds = BoundedMemo<String>()
        let path = input.source.path
        while let row = try reader.next() {
            let values = columns.values(of: row)
            for problem in values.problems { sink.report("line \(row.line): \(problem)") }
            guard let date = values.date else {
                sink.report("line \(row.line): no date in this row")
                continue
            }
            // Cells are trimmed, and empty ones left out: a name or kind here is never "".
            var subject: Subject?
            if let name = values.subjectName {
                guard let named = subjects.answer(name, resources.directory.subject(named:)) else {
                    sink.report(UnknownName.problem(line: row.line, name: name, directory: resources.directory).description)
                    continue
                }
                subject = named
            }
            let kind = values.kind.map { cell in
                kinds.answer(cell) { classifier.classify($0).kind ?? CSVImporter.slug($0) }
            } ?? fileKind
            try sink.accept(.record(values.draft(source: RecordSource(path: path, line: row.line), subject: subject, date: date,
                                                 kind: kind, rowText: CSVImporter.text(of: row))))
        }
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

    /// `sleep.csv` holds sleeps, `수유기록.csv` feedings (by the keyword table); a file called
    /// `export.csv` says nothing, so its notes decide, or failing notes its name is the kind.
    static func kind(fromFileName fileName: String, keywords: KeywordTable, hasNotes: Bool) -> String? {
        let stem = (fileName as NSString).deletingPathExtension
        if let kind = KeywordClassifier(table: keywords).classify(stem).kind { return kind }
        return hasNotes ? nil : slug(stem)
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
