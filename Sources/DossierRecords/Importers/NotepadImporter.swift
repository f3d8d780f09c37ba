import DossierCore
import Foundation

/// Reads free-text care logs: years of notepad files in whatever encoding, one entry per line,
/// dates in any of the forms people write, names at the start of lines. Streams: a file of any
/// size is read a chunk at a time.
public struct NotepadImporter: Importer {
    public let name = "notepad"
    public let summary = "free-text care logs: dated lines and sections, names on lines; UTF-8, UTF-16, CP949"

    public init() {}

    /// Any text: decodable as UTF-8, UTF-16 with a BOM, or CP949. (CSV and property lists are
    /// recognised by their own importers, which come first.)
    public func canRead(head: [UInt8]) -> Bool {
        TextSniffer.isText(head)
    }

    public func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        let resources = try RecordImportResources.of(context)
        let lines: LineReader
        do {
            lines = try LineReader(source: input.source)
        } catch .unknownEncoding(_, let reason) {
            // Bytes that only looked like text (a web page in Latin-1, a picture format Dossier
            // does not read): nothing wrong with the file, only nothing here to read.
            let type = FileTypeDescription.describe(head: input.head)
            throw NotImportable("not text in UTF-8, UTF-16 (with a byte-order mark) or CP949 (\(reason)); "
                + (type == "a text file" ? "it looks like text in another encoding: save it as UTF-8 to import it"
                                         : "it looks like \(type)"))
        }
        // The year the file was last changed dates what is written without a year; a change
        // outside the years a record can have (`touch -d 2300-01-01`, a clock never set) says
        // nothing, and the year it is imported in is taken instead, which the problem says.
        let changed = LocalDateTime(input.source.modificationDate, in: context.timeZone).year
        let changeIsKnown = RecordDate.plausibleYears.contains(changed)
        let fallbackYear = changeIsKnown ? changed : LocalDateTime(Date(), in: context.timeZone).year
        var parser = NotepadParser(
            directory: resources.directory, fileSubject: sink.sourceSubject,
            options: NotepadOptions(monthFirst: resources.settings.monthFirst, fallbackYear: fallbackYear,
                                    nonNames: resources.keywords.allWords))
        let path = input.source.path
        var lineCount = 0, records = 0, problems = 0, undated = 0
        func deliver(_ event: consuming NotepadEvent) throws {
            switch consume event {
            case .entry(let entry):
                records += 1
                try sink.accept(.record(RecordDraft(
                    source: RecordSource(path: path, line: entry.line), subject: entry.subject, date: entry.date,
                    body: entry.body, text: entry.text)))
            case .problem(let problem):
                if problem.isUndated { undated += 1 } else { problems += 1 }
                let reason = changeIsKnown ? problem.reason : problem.reason.replacingOccurrences(
                    of: NotepadImporter.fallbackYearOrigin, with: NotepadImporter.importYearOrigin)
                sink.report(SourceProblem(line: problem.line, reason: reason, isUndated: problem.isUndated))
            }
        }
        while let line = try lines.next() {
            lineCount += 1
            try parser.parse(line, deliver)
        }
        try parser.finish(deliver)
        sink.describe(reading: "\(CSVReading.grouped(lineCount)) \(lineCount == 1 ? "line" : "lines") -> "
            + "\(CSVReading.grouped(records)) \(records == 1 ? "record" : "records"), \(CSVReading.grouped(problems)) "
            + "\(problems == 1 ? "problem" : "problems")"
            + (undated > 0 ? ", \(CSVReading.grouped(undated)) \(undated == 1 ? "line" : "lines") with no date on or above it" : "")
            + "; short dates (5/3) \(resources.settings.monthFirst ? "month" : "day") first, "
            + "as the library's monthFirst says")
    }

    /// How the parser says where the year of a date written without one came from
    /// (`no year before '5/3'; took 2024, the year the file was last changed`), and what this
    /// importer says instead when the file's modification time is not a date.
    static let fallbackYearOrigin = "the year the file was last changed"
    static let importYearOrigin = "the year it was imported (the date the file was last changed is unknown: "
        + "outside the years \(RecordDate.plausibleYears.lowerBound) to \(RecordDate.plausibleYears.upperBound))"
}
