import ArgumentParser
import DossierCore
import DossierRecords
import Foundation

/// `dossier records KIND/ID`: a subject's records in date order.
struct RecordsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "records",
        abstract: "Show a subject's records (feedings, sheds, weights...) in date order.",
        discussion: """
            Examples:
              dossier records pets/leo --kind weight --since 2023-01-01
              dossier records children/mina --json
            """)

    @Argument(help: ArgumentHelp("pets/<id> or children/<id>.", valueName: "kind/id"))
    var subject: String

    @OptionGroup var libraryOptions: LibraryOptions

    @Option(help: ArgumentHelp("Only records of this kind (feeding, shedding, weight, height, cleaning, memo, ...), "
                                   + "or a word the logs use for it (체중, 탈피, ミルク).",
                               valueName: "kind"))
    var kind: String?

    @Option(help: ArgumentHelp("Only records on or after this day, written as a log would (2024-03-02, 2024년 3월 2일, "
                                   + "3/2/2024 month first; \(CommandSupport.dateYears)).",
                               valueName: "date"))
    var since: String?

    @Option(help: ArgumentHelp("Only records on or before this day, written as a log would (2024-03-02, 2024년 3월 2일, "
                                   + "3/2/2024 month first; \(CommandSupport.dateYears)).",
                               valueName: "date"))
    var until: String?

    @Flag(help: "One JSON object per record: id, subject, date, kind, measurements, text, source.")
    var json = false

    func validate() throws {
        if let since { _ = try CommandSupport.day(since, option: "--since") }
        if let until { _ = try CommandSupport.day(until, option: "--until") }
    }

    func run() throws {
        let layout = libraryOptions.layout
        let subject = try CommandSupport.existingSubject(self.subject, in: layout)
        let start = try since.map { try CommandSupport.day($0, option: "--since") }
        let end = try until.map { try CommandSupport.day($0, option: "--until") }
        // A kind as the logs write it (`체중`, `Weight`) is the kind the keyword table files it under.
        var table = KeywordTable.builtIn
        if self.kind != nil { try CommandSupport.withLibraryError { table = try KeywordTable.load(for: layout) } }
        let kind = self.kind.map { table.kind(named: $0) ?? $0.lowercased() }
        var kinds = Set<String>()
        var shown = 0
        try CommandSupport.withLibraryError {
            try RecordStore(layout: layout).forEachRecord(of: subject, from: start, through: end) { record in
                kinds.insert(record.kind)
                guard kind == nil || record.kind == kind else { return }
                shown += 1
                StandardStreams.writeOut(json ? String(decoding: RecordLine.encode(record), as: UTF8.self) : RecordsCommand.line(record))
            }
        }
        // A misspelt kind must not read as "no such records": say which kinds there are.
        if let kind, shown == 0 {
            StandardStreams.writeError(RecordsCommand.noRecords(of: kind, subject: subject, kinds: kinds))
            throw ExitCode(1)
        }
    }

    /// `dossier: pets/leo has no records of kind 'wieght' (did you mean weight?); its kinds: feeding, shedding, weight`
    static func noRecords(of kind: String, subject: Subject, kinds: Set<String>) -> String {
        let closest = ClosestNames.closest(to: kind, among: Array(kinds), count: 1)
        let suggestion = closest.first.map { " (did you mean \($0)?)" } ?? ""
        let known = kinds.isEmpty ? "it has no records in that time" : "its kinds: \(kinds.sorted().joined(separator: ", "))"
        return "dossier: \(subject.path) has no records of kind '\(kind)'\(suggestion); \(known)\n"
    }

    static func line(_ record: Record) -> String {
        // Shown to the decimals the source gave (4 oz: 118 ml), stored as converted.
        let measurements = record.measurements.map { "\($0.name) \($0.shownValue) \($0.unit.rawValue)" }
        let padded = record.date.iso8601.padding(toLength: 16, withPad: " ", startingAt: 0)
        let kind = record.kind.padding(toLength: 9, withPad: " ", startingAt: 0)
        return "\(padded)  \(kind)  \(record.text)" + (measurements.isEmpty ? "" : "  [\(measurements.joined(separator: ", "))]") + "\n"
    }
}
