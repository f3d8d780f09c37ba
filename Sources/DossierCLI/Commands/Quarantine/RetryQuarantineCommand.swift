import ArgumentParser
import DossierCore
import Foundation
import Logging

/// `dossier quarantine retry ID|--all [--subject KIND/ID]`: puts quarantined sources through the
/// pipeline again.
struct RetryQuarantineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Import quarantined sources again; those that file leave the quarantine.",
        discussion: """
            Each source is read from the quarantine and routed by the path it had in the inbox, as the daemon \
            would have, or filed under --subject (as `dossier import --subject` files): the way out for a \
            file quarantined with no subject. One that files (or is found already filed, its copy checked) is \
            removed from the quarantine with its note; one that fails again stays, its note saying why now. \
            The exit status is 1 if any failed again.

            Examples:
              dossier quarantine retry --all
              dossier quarantine retry 2026-11-25/notes.txt --subject pets/leo
              dossier quarantine retry 2026-11-25/IMG_0042.jpg --subject pets/mochi --create
            """)

    @Argument(help: ArgumentHelp("Ids of quarantined sources, as `dossier quarantine list` shows them.", valueName: "id"))
    var ids: [String] = []

    @Flag(help: "Retry every quarantined source.")
    var all = false

    @Option(help: ArgumentHelp("File the retried sources under this subject, e.g. pets/leo or children/mina.",
                               valueName: "kind/id"))
    var subject: String?

    @Flag(help: "Create the --subject's folder when the library has no such subject yet (else a misspelt --subject is refused).")
    var create = false

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(help: "Print one JSON object per source, then one summary object, on standard output.")
    var json = false

    func validate() throws {
        if ids.isEmpty == !all { throw ValidationError("Give the ids of quarantined sources, or --all.") }
        if let subject {
            do { _ = try Subject(parsing: subject) } catch { throw ValidationError("--subject: \(error)") }
        }
        if create && subject == nil { throw ValidationError("--create makes the --subject's folder: give --subject too.") }
    }

    func run() async throws {
        let layout = libraryOptions.layout
        try CommandSupport.requireLibrary(layout)
        let requested = try subject.map { try Subject(parsing: $0) }
        // Refused before anything is read: a misspelt --subject would otherwise file the
        // quarantine's sources under a subject nobody has.
        if let requested, !create, !layout.existingSubjects().contains(requested) {
            throw ValidationError("--subject: there is no subject \(requested.path) in \(layout.root.path)"
                + CommandSupport.didYouMean(requested, in: layout)
                + "; give --create to make it, or add it first with `dossier subjects add`.")
        }
        let quarantine = Quarantine(layout: layout)
        let entries: [QuarantineEntry]
        let sources: [SourceFile]
        do {
            entries = all ? try quarantine.entries() : try CommandSupport.quarantined(ids, in: quarantine)
            sources = try entries.map { try quarantine.source(of: $0) }
        } catch let error as ValidationError {
            throw error
        } catch {
            StandardStreams.writeError("dossier: \(error)\n")
            throw ExitCode(2)
        }
        guard !entries.isEmpty else {
            StandardStreams.writeOut("Nothing in quarantine in \(layout.root.path).\n")
            return
        }
        // A quarantined copy is the source's only copy now: damaged since, it is still filed (it
        // is all there is), but never without a word.
        for entry in entries {
            guard let path = try? quarantine.path(of: entry), let (size, digest) = try? layout.files.digest(ofFile: path),
                  digest.hex != entry.sha256 || size != entry.size
            else { continue }
            StandardStreams.writeError("dossier: \(SourcePath.displayed(entry.id)): its bytes are not the ones quarantined "
                + "(\(size) bytes hashing to \(digest.hex.prefix(16)), where \(entry.size) hashed to \(entry.sha256.prefix(16))): "
                + "damaged since; retried as it is\n")
        }
        // --move: a source that files leaves the quarantine only once its copy is checked. It left
        // its inbox path when it was quarantined: a new source, whatever was filed from that path
        // since, so its records never replace any.
        var options = ImportOptions(requestedSubject: requested, move: true)
        options.access = .existing
        options.history = .departed
        let logger = Logger(label: "dossier", factory: { StreamLogHandler.standardError(label: $0) })
        let pipeline = ImportPipeline(registry: try BuiltinPlugins.registry(), layout: layout, options: options, logger: logger)
        let reporter: any OutcomeListener = json
            ? JSONLinesReporter()
            : TerminalReporter(verbose: true, showsProgress: StandardStreams.errorIsTerminal)
        let recorder = OutcomeRecorder()
        do {
            _ = try await pipeline.run(found: sources.map { .file($0) }, listeners: [reporter, recorder],
                                       whileWaitingForLock: CommandSupport.sayWaiting)
        } catch {
            StandardStreams.writeError("dossier: \(error)\n")
            throw ExitCode(2)
        }
        // Those still there failed again: their notes say why now.
        var stillThere = 0
        for var entry in entries where layout.files.isFile((try? quarantine.path(of: entry)) ?? "") {
            stillThere += 1
            entry.retries += 1
            if let outcome = recorder.outcome(of: entry.originalPath) {
                // Filed, but not taken out of the quarantine (its copy could not be checked): say so.
                let filed = outcome.status == .imported || outcome.status == .duplicate
                entry.reason = filed ? "filed, but " + outcome.warnings.joined(separator: "; ") : outcome.reason
            }
            try? quarantine.update(entry)
        }
        if !json {
            StandardStreams.writeOut(stillThere == 0 ? "Nothing left in quarantine.\n"
                : "\(stillThere) still in quarantine (see `dossier quarantine list`).\n")
        }
        if stillThere > 0 { throw ExitCode(1) }
    }
}
