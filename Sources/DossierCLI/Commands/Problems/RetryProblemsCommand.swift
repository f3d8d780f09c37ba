import ArgumentParser
import DossierCore
import Foundation
import Logging

/// `dossier problems retry`: reads the kept sources with problems again, after their cause was
/// fixed, and files what now resolves.
struct RetryProblemsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Read the sources with problems again (from the library's copies) and file what now resolves.",
        discussion: """
            Each source is read from its kept copy under <library>/sources/, so the original need not exist any \
            more. Lines that now resolve are filed (records already filed stay once); the source's problems are \
            replaced by those that remain.

            Examples:
              dossier subjects edit pets/leo --add-alias 레우
              dossier problems retry
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(help: "Print one JSON object per source, then one summary object, on standard output.")
    var json = false

    @Flag(name: .customLong("no-wait"), help: "Fail at once if an import is using the library, instead of waiting.")
    var noWait = false

    func run() async throws {
        let layout = libraryOptions.layout
        let index = try CommandSupport.readIndex(layout)
        let sources: [RetrySource]
        do {
            sources = RetrySource.sources(in: try index?.problems() ?? [])
            index?.close()
        } catch {
            StandardStreams.writeError("dossier: \(error)\n")
            throw ExitCode(2)
        }
        guard !sources.isEmpty else {
            StandardStreams.writeOut("No problems to retry in \(layout.root.path).\n")
            return
        }
        var options = ImportOptions(waitForLock: !noWait)
        options.retryingProblems = true
        options.access = .existing
        let logger = Logger(label: "dossier", factory: { StreamLogHandler.standardError(label: $0) })
        let pipeline = ImportPipeline(registry: try BuiltinPlugins.registry(), layout: layout, options: options,
                                      logger: logger)
        let reporter: any OutcomeListener = json
            ? JSONLinesReporter()
            : TerminalReporter(verbose: true, showsProgress: StandardStreams.errorIsTerminal)
        let summary: ImportSummary
        do {
            summary = try await pipeline.retry(sources, listeners: [reporter], whileWaitingForLock: CommandSupport.sayWaiting)
        } catch {
            StandardStreams.writeError("dossier: \(error)\n")
            throw ExitCode(2)
        }
        if !json {
            let remaining = (try? LibraryIndex.openReadOnly(layout)?.problems().count) ?? 0
            StandardStreams.writeOut(remaining == 0 ? "No problems remain.\n"
                : "\(remaining) \(remaining == 1 ? "problem remains" : "problems remain") (see `dossier problems`).\n")
        }
        if summary.hasFailures { throw ExitCode(1) }
    }
}
