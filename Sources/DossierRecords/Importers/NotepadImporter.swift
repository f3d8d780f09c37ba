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
        let lines = try LineReader(path: input.source.readPath)
        let fallbackYear = LocalDateTime(input.source.modificationDate, in: context.timeZone).year
        var parser = NotepadParser(
            directory: resources.directory, fileSubject: sink.sourceSubject,
            options: NotepadOptions(monthFirst: resources.settings.monthFirst, fallbackYear: fallbackYear,
                                    nonNames: resources.keywords.allWords))
        let path = input.source.path
        func deliver(_ event: consuming NotepadEvent) throws {
            switch consume event {
            case .entry(let entry):
                try sink.accept(.record(RecordDraft(
                    source: RecordSource(path: path, line: entry.line), subject: entry.subject, date: entry.date,
                    body: entry.body, text: entry.text)))
            case .problem(let problem):
                sink.report(SourceProblem(line: problem.line, reason: problem.reason, isUndated: problem.isUndated))
            }
        }
        while let line = try lines.next() {
            try parser.parse(line, deliver)
        }
        try parser.finish(deliver)
    }
}
