import ArgumentParser
import DossierCore
import Foundation
import Synchronization

/// `dossier verify`: every file in the library checked against the index.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every file in the library against what was filed.",
        discussion: """
            Every filed photo, video, sidecar and audio file is hashed again and compared with the digest the \
            index holds and the one its name carries; every year file of records is compared with the bytes \
            Dossier last wrote and, if they differ, read line by line; every profile must be a JSON object; \
            kept sources (sources/) and quarantined sources must hold the bytes they were kept with. Files in \
            the subject folders and sources/ that the index does not know are listed too.

            Each finding is one line: damaged, missing, unindexed or unreadable, the file, and why. Where the \
            source a damaged or missing file was imported from is still where it was, the line says so: import \
            it again and the file is filed anew.

            It only reads, and it can run while `dossier watch` files into the same library: at the end it waits for \
            an import's batch under way to finish before it calls a file missing or unindexed.

            Exit status: 0 all is well, 1 something was found, 2 the library could not be used.
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(help: "Check sizes and modification times instead of hashing photos, videos and kept sources.")
    var quick = false

    @Flag(help: "Print one JSON object per finding, then a summary object, on standard output (JSON Lines).")
    var json = false

    func run() throws {
        let layout = libraryOptions.layout
        var result = VerificationResult()
        let started = ContinuousClock.now
        do throws(LibraryError) {
            result = try verify(layout)
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
            StandardStreams.writeOut(try CommandSupport.json(SummaryLine(result, library: layout.root.path, quick: quick,
                                                                          seconds: seconds)) + "\n")
        } else {
            for finding in result.findings { StandardStreams.writeOut(VerifyCommand.line(for: finding)) }
            StandardStreams.writeOut(VerifyCommand.summary(result, library: layout.root.path, quick: quick, seconds: seconds))
        }
        if !result.isClean { throw ExitCode(1) }
    }

    /// Opens the library's index read-only and checks the library against it.
    private func verify(_ layout: LibraryLayout) throws(LibraryError) -> VerificationResult {
        let identity: LibraryIdentity?
        switch try LibraryIdentity.state(of: layout) {
        case .identified(let found): identity = found
        case .unidentified: identity = nil
        case .absent: throw .noLibrary(path: layout.root.path)
        }
        guard let index = try LibraryIndex.openReadOnly(layout, identity: identity) else {
            throw .index(path: layout.indexFile.path, reason: "there is none; run `dossier index rebuild` to build it from the folders")
        }
        defer { index.close() }
        let bar = Mutex(ProgressBar(enabled: !json && StandardStreams.errorIsTerminal))
        defer { bar.withLock { $0.clear() } }
        do {
            return try LibraryVerifier(layout: layout).verify(index, depth: quick ? .quick : .full,
                                                              whileWaiting: CommandSupport.sayWaiting) { progress in
                bar.withLock {
                    $0.draw(completed: progress.files, total: progress.totalFiles,
                            detail: progress.totalBytes > 0 ? CommandSupport.bytes(progress.bytes) : "")
                }
            }
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
        let renditions = result.renditions == 0 ? ""
            : " (\(result.renditions) \(result.renditions == 1 ? "rendition" : "renditions") beside \(result.renditions == 1 ? "its photo" : "their photos") "
                + "passed over: made from \(result.renditions == 1 ? "it" : "them"))"
        let found = result.isClean
            ? "all is well"
            : VerificationFinding.Kind.allCases.compactMap { kind in
                let count = result.count(kind)
                return count == 0 ? nil : "\(count) \(kind.rawValue)"
            }.joined(separator: ", ")
        return "Checked \(files)\(how) of \(SourcePath.displayed(library)) in \(String(format: "%.2f", seconds)) s: "
            + "\(found)\(renditions).\n"
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
            let renditions: Int
            let found: Counts
            let ok: Bool
            let seconds: Double
        }

        let summary: Summary

        init(_ result: VerificationResult, library: String, quick: Bool, seconds: Double) {
            summary = Summary(library: library, quick: quick, checkedFiles: result.checkedFiles,
                              checkedBytes: result.checkedBytes, renditions: result.renditions,
                              found: Counts(damaged: result.count(.damaged), missing: result.count(.missing),
                                            unindexed: result.count(.unindexed), unreadable: result.count(.unreadable)),
                              ok: result.isClean, seconds: (seconds * 1000).rounded() / 1000)
        }
    }
}
