import ArgumentParser
import DossierCore
import Foundation
import Logging
import Synchronization

/// `dossier import PATH...`: files photos under their subjects, upright.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import photos, care logs, CSV exports and property lists, filed under their subjects.",
        discussion: """
            Folders are walked recursively; files are recognised by their bytes, not their names. \
            Photos (JPEG, PNG) are filed upright; HEIC, AVIF, TIFF, BMP, JPEG XL and raws as they \
            are, with a JPEG beside each (--renditions); WebP, GIF, videos and sound byte for byte; \
            a Live Photo's movie, a raw shot with a JPEG and a sidecar beside their photo. \
            Notepad logs, CSV files and property lists become \
            records in <subject>/records/<YYYY>.jsonl (or profiles, or species for the species table); \
            a line or row that names its subject goes there. Otherwise a file's subject is --subject, \
            else the nearest pets/<id> or children/<id> folder above it, else a folder above it named \
            after an existing subject, else a file or folder named after a subject's name or alias; \
            only folders below the path named on the command line count. \
            Sources are copied and left untouched unless --move is given. A profile's fields typed with \
            `dossier subjects add` or `edit` stay unless --overwrite-profiles is given; each outcome lists \
            the profile fields it changed, per subject, and the typed ones it kept. Problems with single lines \
            are reported with the file and line; the rest imports. \
            Exit status: 0 when everything was filed or was already there; 1 when a source failed; \
            2 when the library could not be used; 3 when the import finished but left problems, \
            unassigned sources or text sources that gave no records (see `dossier problems`).

            Examples:
              dossier import ~/dump/leo --subject pets/leo --library ~/Dossier
              dossier import ~/phone-dump --json
              dossier import ~/phone-dump --dry-run
              dossier import ~/notes/*.txt
              dossier import sleep-export.csv --subject children/mina --kind sleep
            """)

    @Argument(help: ArgumentHelp("Files or folders to import.", valueName: "path"))
    var paths: [String] = []

    @OptionGroup var libraryOptions: LibraryOptions

    @OptionGroup var photoOptions: PhotoOptions

    @Option(help: ArgumentHelp("File everything under this subject, e.g. pets/leo or children/mina.",
                               valueName: "kind/id"))
    var subject: String?

    @Flag(help: ArgumentHelp(
        "Make the subjects that do not exist yet: the --subject's, and those pets/<id> and children/<id> folders name.",
        discussion: "Without it a misspelt --subject is refused, and a folder naming no subject leaves its files "
            + "unassigned, with the nearest ids: a typo never becomes a subject."))
    var create = false

    @Option(help: ArgumentHelp("The kind of records from sources that do not say (a CSV without a kind column).",
                               valueName: "kind"))
    var kind: String?

    @Flag(help: "Let profiles the sources give replace the fields typed with `dossier subjects add` or `edit` (else those stay, and the outcome says what was kept).")
    var overwriteProfiles = false

    @Flag(help: "Show where each source would be filed; write nothing, not even the index.")
    var dryRun = false

    @Flag(help: "Remove each source once its filed copy is durable and in the index.")
    var move = false

    // Read even when it starts with a dash, so `--jobs -1` is refused for what it is.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "How many files to work on at once (\(CommandSupport.span(CommandSupport.jobRange)); default: the number of cores).",
        valueName: "n"))
    var jobs: Int?

    @Flag(help: "Print one JSON object per source, then one summary object, on standard output.")
    var json = false

    @Flag(name: .customLong("no-wait"), help: "Fail at once if another import is using the library, instead of waiting.")
    var noWait = false

    @Flag(name: .shortAndLong, help: "Print every source's outcome and warnings, not only the problems.")
    var verbose = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Give at least one file or folder to import.") }
        if let jobs { try CommandSupport.check(jobs, option: "--jobs", in: CommandSupport.jobRange) }
        if dryRun && move { throw ValidationError("--dry-run and --move cannot be used together: a dry run removes nothing.") }
        if let subject {
            do { _ = try Subject(parsing: subject) } catch { throw ValidationError("--subject: \(error)") }
        }
        if let kind, kind.isEmpty || kind.contains(where: { $0.isWhitespace || $0 == "/" }) {
            throw ValidationError("--kind: '\(kind)' is not a kind: one word, like sleep or feeding.")
        }
    }

    func run() async throws {
        if let subject, !create, let requested = try? Subject(parsing: subject),
           !libraryOptions.layout.existingSubjects().contains(requested) {
            throw ValidationError("--subject: there is no subject \(requested.path) in \(libraryOptions.layout.root.path)"
                + CommandSupport.didYouMean(requested, in: libraryOptions.layout)
                + "; give --create to make it, or add it first with `dossier subjects add`.")
        }
        var options = ImportOptions(requestedSubject: try subject.map { try Subject(parsing: $0) }, dryRun: dryRun,
                                    move: move, jobs: jobs ?? ImportOptions.defaultJobs, waitForLock: !noWait,
                                    requestedKind: kind.map { $0.lowercased() })
        options.originals = photoOptions.originals
        options.createsSubjects = create
        options.overwritesTypedFields = overwriteProfiles
        var logger = Logger(label: "dossier", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = verbose ? .info : .warning
        let pipeline = ImportPipeline(registry: try BuiltinPlugins.registry(renditions: photoOptions.renditions),
                                      layout: libraryOptions.layout, options: options, logger: logger)
        let reporter: any OutcomeListener = json
            ? JSONLinesReporter()
            : TerminalReporter(verbose: verbose, showsProgress: StandardStreams.errorIsTerminal)
        let paths = self.paths
        // The handler is in place before the import starts, so no early signal is lost; one that
        // comes before the task exists cancels it as soon as it does.
        let running = Mutex<Task<ImportSummary, any Error>?>(nil)
        let interruption = InterruptionHandler { running.withLock { $0?.cancel() } }
        let importTask = Task {
            try await pipeline.run(paths, listeners: [reporter], whileWaitingForLock: CommandSupport.sayWaiting)
        }
        running.withLock { $0 = importTask }
        if interruption.exitStatus != nil { importTask.cancel() }
        defer { withExtendedLifetime(interruption) {} }
        let summary: ImportSummary
        do {
            summary = try await importTask.value
        } catch let error as LibraryError {
            StandardStreams.writeError("dossier: \(error)\n")
            if json { StandardStreams.writeOut(JSONLinesReporter.line(for: error)) }
            throw ExitCode(2)
        }
        if let status = interruption.exitStatus { throw ExitCode(status) }
        if summary.hasFailures { throw ExitCode(1) }
        if summary.leftForYou > 0 || summary.linksNotFollowed > 0 { throw ExitCode(3) }
    }
}
