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

    @Option(help: ArgumentHelp("Only records of this kind (feeding, shedding, weight, height, cleaning, memo, ...).",
                               valueName: "kind"))
    var kind: String?

    @Option(help: ArgumentHelp("Only records on or after this day (YYYY-MM-DD).", valueName: "date"))
    var since: String?

    @Option(help: ArgumentHelp("Only records on or before this day (YYYY-MM-DD).", valueName: "date"))
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
        try CommandSupport.withLibraryError {
            try RecordStore(layout: layout).forEachRecord(of: subject, from: start, through: end) { record in
                guard kind == nil || record.kind == kind else { return }
                StandardStreams.writeOut(json ? String(decoding: RecordLine.encode(record), as: UTF8.self) : RecordsCommand.line(record))
            }
        }
    }

    static func line(_ record: Record) -> String {
        let measurements = record.measurements.map { "\($0.name) \(RecordLine.number($0.value)) \($0.unit.rawValue)" }
        let padded = record.date.iso8601.padding(toLength: 16, withPad: " ", startingAt: 0)
        let kind = record.kind.padding(toLength: 9, withPad: " ", startingAt: 0)
        return "\(padded)  \(kind)  \(record.text)" + (measurements.isEmpty ? "" : "  [\(measurements.joined(separator: ", "))]") + "\n"
    }
}
