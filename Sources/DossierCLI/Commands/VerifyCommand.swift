import ArgumentParser
import DossierCore
import DossierRecords
import Foundation
import Logging
import Synchronization

/// `dossier verify`: every file in the library checked against the index.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every file in the library against what was filed.",
        discussion: """
            Every filed photo, video, sidecar and audio file is hashed again and compared with the digest the \
            index holds and the one its name carries, and every rendition beside a photo (the JPEG or PNG made \
            from a HEIC, a TIFF or a raw) with the digest it was filed with; every year file of records is compared with the bytes \
            Dossier last wrote and, if they differ, read line by line; every profile must be a JSON object; \
            kept sources (sources/) and quarantined sources must hold the bytes they were kept with. Files in \
            the subject folders and sources/ that the index does not know are listed too: a file with a \
            rendition's name that Dossier did not file among them.

            Each finding is one line: damaged, missing, unindexed or unreadable, the file, and why. Where a damaged \
            or missing photo has a good copy (the source it was imported from, still where it was and hashed to the \
            bytes it gave, or its original under originals/; for a rendition, its photo), the line says so. A damaged \
            one is noted in the index: the next import into the library (or the daemon's next batch) files it again \
            from that copy, under its own name (the damaged bytes kept under damaged/). A missing one (deleted by \
            hand, perhaps on purpose) comes back only when you say so: --repair files it again, or `dossier remove \
            PATH` forgets it. --repair files every damaged or missing photo with a good copy again now (a missing \
            one with none, when its source is next imported), keeps a damaged profile under damaged/ and starts it \
            again, then checks the library again.

            It only reads, and it can run while `dossier watch` files into the same library: at the end it waits for \
            an import's batch under way to finish before it calls a file missing or unindexed.

            Exit status: 0 all is well, 1 something was found, 2 the library could not be used.
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(help: "Check sizes and modification times instead of hashing photos, videos and kept sources.")
    var quick = false

    @Flag(help: "Print one JSON object per finding, then a summary object, on standard output (JSON Lines).")
    var json = false

    @Flag(help: "File each damaged or missing photo that has a good copy again from it (a missing one without one when its source is next imported), make each damaged or missing rendition again from its photo, then check the library again.")
    var repair = false

    func run() async throws {
        let layout = libraryOptions.layout
        var result = VerificationResult()
        var started = ContinuousClock.now
        var recorded: Result<Int, LibraryError> = .success(0)
        do throws(LibraryError) {
            var notedBefore: Bool
            (result, notedBefore) = try verify(layout)
            let profiles = result.findings.filter { $0.subject != nil && $0.path.hasSuffix("/profile.json") }
            if repair, !mendable(result).isEmpty || !profiles.isEmpty {
                // What is mended goes the one way the next import would take: noted, then filed
                // again from good copies checked by their bytes.
                if case .failure(let error) = recordForNextImport(mendable(result), in: result, layout: layout,
                                                                  replacingEarlier: true) {
                    throw error
                }
                try await VerifyCommand.fileNotedCopiesAgain(layout: layout, json: json)
                try VerifyCommand.startAgain(profiles, layout: layout, json: json)
                started = ContinuousClock.now
                (result, notedBefore) = try verify(layout)
            }
            recorded = recordForNextImport(mendable(result), in: result, layout: layout, replacingEarlier: notedBefore)
        } catch {
            // The library could not be used: said on standard error and, with --json, as the
            // one line `import --json` gives it too.
            StandardStreams.writeError("dossier: \(SourcePath.displayed("\(error)"))\n")
            if json { StandardStreams.writeOut(JSONLinesReporter.line(for: error)) }
            throw ExitCode(2)
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        if json {
            for finding in result.findings { StandardStreams.writeOut(try CommandSupport.json(FindingLine(finding)) + "\n") }
            let noted = (try? recorded.get()) ?? 0
            StandardStreams.writeOut(try CommandSupport.json(SummaryLine(result, library: layout.root.path, quick: quick,
                                                                          seconds: seconds, notedToFileAgain: noted)) + "\n")
        } else {
            for finding in result.findings { StandardStreams.writeOut(VerifyCommand.line(for: finding)) }
            StandardStreams.writeOut(VerifyCommand.summary(result, library: layout.root.path, quick: quick, seconds: seconds))
        }
        // Said beside the findings, on standard error: standard output is the findings alone.
        if case .success = recorded {
            let noted = mendable(result)
            let withCopy = noted.count { $0.goodCopy != nil }
            if withCopy > 0 {
                let what = withCopy == 1 ? "photo has a good copy: the next import into this library files it"
                                         : "photos have a good copy: the next import into this library files them"
                StandardStreams.writeError("dossier: \(withCopy) damaged or missing \(what) again from it (`dossier verify --repair` does it now)\n")
            }
            let awaiting = noted.count - withCopy
            if awaiting > 0 {
                StandardStreams.writeError("dossier: \(awaiting) missing \(awaiting == 1 ? "photo has" : "photos have") no good copy at hand: "
                    + "the next import of \(awaiting == 1 ? "its source files it" : "their sources files them") again, as --repair asked "
                    + "(`dossier remove PATH` forgets one instead)\n")
            }
        }
        if case .failure(let error) = recorded {
            StandardStreams.writeError("dossier: could not note the damaged photos for the next import to file again (\(error)); "
                + "once the library can be written, `dossier verify --repair` files them again\n")
        }
        if !result.isClean { throw ExitCode(1) }
    }

    /// Files again what was just noted, as the next import would: an import of nothing, whose
    /// run files the noted copies first (`ImportPipeline+Mending`). Its outcome lines say what was
    /// done.
    static func fileNotedCopiesAgain(layout: LibraryLayout, json: Bool) async throws(LibraryError) {
        let reporter: any OutcomeListener = json ? JSONLinesReporter() : TerminalReporter(verbose: true, showsProgress: false)
        let logger = Logger(label: "dossier", factory: { StreamLogHandler.standardError(label: $0) })
        let registry: PluginRegistry
        do { registry = try BuiltinPlugins.registry() } catch { throw .badConfiguration(path: layout.root.path, reason: "\(error)") }
        var options = ImportOptions()
        options.access = .existing
        let pipeline = ImportPipeline(registry: registry, layout: layout, options: options, logger: logger)
        _ = try await pipeline.run(found: [], listeners: [reporter], whileWaitingForLock: CommandSupport.sayWaiting)
    }

    /// Starts each damaged profile again (`ProfileStore.startAgain`), under the library's lock,
    /// and says where its damaged bytes went and what to give again.
    static func startAgain(_ findings: [VerificationFinding], layout: LibraryLayout, json: Bool) throws(LibraryError) {
        guard !findings.isEmpty else { return }
        let session = try LibrarySession.open(layout, access: .existing, dryRun: false, waitForLock: true,
                                              whileWaiting: CommandSupport.sayWaiting)
        defer { session.close() }
        for finding in findings {
            guard let subjectPath = finding.subject, let subject = try? Subject(parsing: subjectPath) else { continue }
            let aside: String?
            do {
                aside = try ProfileStore(layout: layout).startAgain(subject)
            } catch {
                // One profile that cannot be started again leaves the others to be: the check
                // after names what is still wrong.
                StandardStreams.writeError("dossier: could not start \(finding.path) again: \(SourcePath.displayed("\(error)"))\n")
                continue
            }
            let line = StartedAgainLine(startedAgain: finding.path, damagedCopy: aside, subject: subject.path)
            StandardStreams.writeOut(json ? ((try? CommandSupport.json(line)) ?? "") + "\n"
                : "started again \(finding.path): its damaged bytes are kept at \(aside ?? "(nothing was there)"); "
                    + "give its name and fields again with `dossier subjects edit \(subject.path)`\n")
        }
    }

    /// A profile started again by --repair, in `--json`.
    struct StartedAgainLine: Encodable {
        let startedAgain: String
        let damagedCopy: String?
        let subject: String
    }

    /// What is noted for the next import to file again: each damaged photo with a good copy (a
    /// full check only: a later modification time may be the same bytes written again, which
    /// only hashing tells); with --repair, each missing one too, with a good copy or none (then the
    /// next import of its source files it). A file missing unasked may have been deleted on
    /// purpose: it comes back only when a person says so.
    func mendable(_ result: VerificationResult) -> [VerificationFinding] {
        result.findings.filter { finding in
            guard finding.subject != nil, !finding.path.hasSuffix("/profile.json") else { return false }
            switch finding.kind {
            case .damaged: return !quick && finding.goodCopy != nil
            case .missing: return repair
            case .unindexed, .unreadable: return false
            }
        }
    }

    /// Notes in the index what the next import files again (`CopyToMend`); returns how many. A
    /// full check replaces what earlier checks noted (keeping what `--repair` asked of a file
    /// still missing), a quick one only adds. Writing takes the library's lock, so only when there
    /// is something to note or to forget.
    private func recordForNextImport(_ mendable: [VerificationFinding], in result: VerificationResult, layout: LibraryLayout,
                                     replacingEarlier: Bool) -> Result<Int, LibraryError> {
        guard !mendable.isEmpty || (replacingEarlier && !quick) else { return .success(0) }
        do throws(LibraryError) {
            let session = try LibrarySession.open(layout, access: .existing, dryRun: false, waitForLock: true,
                                                  whileWaiting: CommandSupport.sayWaiting)
            defer { session.close() }
            let now = ISO8601DateFormatter().string(from: Date())
            let root = layout.root.path + "/"
            var notes = mendable.compactMap { finding -> CopyToMend? in
                guard let subject = finding.subject else { return nil }
                let noted = finding.goodCopy.map { $0.hasPrefix(root) ? String($0.dropFirst(root.count)) : $0 } ?? ""
                return CopyToMend(path: finding.path, subject: subject, goodCopy: noted, foundAt: now)
            }
            let missing = Set(result.findings.filter { $0.kind == .missing }.map(\.path)).subtracting(notes.map(\.path))
            notes += try session.index?.copiesToMend().filter { $0.goodCopy.isEmpty && missing.contains($0.path) } ?? []
            try session.index?.record(copiesToMend: notes, replacingAll: !quick)
            return .success(mendable.count)
        } catch {
            return .failure(error)
        }
    }

    /// Opens the library's index read-only and checks the library against it; also says whether
    /// an earlier check noted photos for the next import to file again.
    private func verify(_ layout: LibraryLayout) throws(LibraryError) -> (VerificationResult, notedBefore: Bool) {
        let identity: LibraryIdentity
        switch try LibraryIdentity.state(of: layout) {
        case .identified(let found): identity = found
        // Refused before any advice: `index rebuild` would make a dump sorted like a library one.
        case .unidentified: throw .noLibraryID(path: layout.root.path)
        case .absent: throw .noLibrary(path: layout.root.path)
        }
        guard let index = try LibraryIndex.openReadOnly(layout, identity: identity) else {
            throw .index(path: layout.indexFile.path, reason: "there is none; run `dossier index rebuild` to build it from the folders")
        }
        defer { index.close() }
        let bar = Mutex(ProgressBar(enabled: !json && StandardStreams.errorIsTerminal))
        defer { bar.withLock { $0.clear() } }
        let notedBefore = !(try index.copiesToMend().isEmpty)
        do {
            return (try LibraryVerifier(layout: layout, profileProblem: ProfileStore.problem(with:of:)).verify(index, depth: quick ? .quick : .full,
                                                              whileWaiting: CommandSupport.sayWaiting) { progress in
                bar.withLock {
                    $0.draw(completed: progress.files, total: progress.totalFiles,
                            detail: progress.totalBytes > 0 ? CommandSupport.bytes(progress.bytes) : "")
                }
            }, notedBefore)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .cannotRead(path: layout.root.path, reason: "\(error)")
        }
    }

    static func line(for finding: VerificationFinding) -> String {
        let label = finding.kind.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
        return "\(label)\(SourcePath.displayed(finding.path)): \(SourcePath.displayed(finding.reason))\n"
    }

    static func summary(_ result: VerificationResult, library: String, quick: Bool, seconds: Double) -> String {
        let files = "\(result.checkedFiles) \(result.checkedFiles == 1 ? "file" : "files")"
        let how = quick ? " by size and time" : " (\(CommandSupport.bytes(result.checkedBytes)) read)"
        let found = result.isClean
            ? "all is well"
            : VerificationFinding.Kind.allCases.compactMap { kind in
                let count = result.count(kind)
                return count == 0 ? nil : "\(count) \(kind.rawValue)"
            }.joined(separator: ", ")
        return "Checked \(files)\(how) of \(SourcePath.displayed(library)) in \(String(format: "%.2f", seconds)) s: "
            + "\(found).\n"
    }

    /// A finding in `--json`.
    struct FindingLine: Encodable {
        let kind: String
        let path: String
        let reason: String
        let goodCopy: String?

        init(_ finding: VerificationFinding) {
            kind = finding.kind.rawValue
            path = finding.path
            reason = finding.reason
            goodCopy = finding.goodCopy
        }
    }

    /// The closing object of `--json`: what was checked, and how many of each finding.
    struct SummaryLine: Encodable {
        struct Counts: Encodable {
            let damaged: Int
            let missing: Int
            let unindexed: Int
            let unreadable: Int
        }

        struct Summary: Encodable {
            let library: String
            let quick: Bool
            let checkedFiles: Int
            let checkedBytes: Int64
            let found: Counts
            /// Damaged or missing photos with a good copy, noted for the next import to file again.
            let notedToFileAgain: Int
            let ok: Bool
            let seconds: Double
        }

        let summary: Summary

        init(_ result: VerificationResult, library: String, quick: Bool, seconds: Double, notedToFileAgain: Int) {
            summary = Summary(library: library, quick: quick, checkedFiles: result.checkedFiles,
                              checkedBytes: result.checkedBytes,
                              found: Counts(damaged: result.count(.damaged), missing: result.count(.missing),
                                            unindexed: result.count(.unindexed), unreadable: result.count(.unreadable)),
                              notedToFileAgain: notedToFileAgain, ok: result.isClean, seconds: (seconds * 1000).rounded() / 1000)
        }
    }
}
