import DossierCore
import Foundation
import Synchronization

/// Human output on standard output: a line for each problem, failure and folder passed over (and,
/// with --verbose or --dry-run, for every source), and a closing summary line; a progress bar
/// on standard error when it is a terminal.
final class TerminalReporter: OutcomeListener {
    private struct State {
        var bar: ProgressBar
        var dryRun = false
    }

    private let verbose: Bool
    private let state: Mutex<State>

    init(verbose: Bool, showsProgress: Bool) {
        self.verbose = verbose
        state = Mutex(State(bar: ProgressBar(enabled: showsProgress)))
    }

    func receive(_ event: ImportEvent) {
        state.withLock { state in
            switch event {
            case .notice(let notice):
                clearBar(&state)
                StandardStreams.writeError("dossier: \(notice)\n")
            case .started(_, let dryRun):
                state.dryRun = dryRun
            case .finished(let outcome, let completed, let total):
                if let line = line(for: outcome, dryRun: state.dryRun) {
                    clearBar(&state)
                    // Every source's line on standard output, a failure's too, in the order they
                    // settled, with the summary that counts them and says "see above": piped to a
                    // file or a pager, the list is whole. Standard error is for the run itself
                    // (the progress bar, the library's notices, a failure that stops it); the
                    // exit status tells a script that something failed.
                    StandardStreams.writeOut(line)
                }
                drawBar(&state, completed: completed, total: total)
            case .completed(let summary):
                clearBar(&state)
                StandardStreams.writeOut(TerminalReporter.summaryLine(summary))
            }
        }
    }

    func line(for outcome: SourceOutcome, dryRun: Bool) -> String? {
        // Problems with lines are always shown: the keeper has a line to fix.
        // How a log or CSV was read is shown for each one, so a misreading is seen at once.
        // So is a photo filed though damaged: the user's copy may be the only one.
        let everything = verbose || dryRun || !outcome.problems.isEmpty || outcome.recordsRemoved > 0 || outcome.reading != nil
            || outcome.damaged || outcome.refiled || !outcome.profileChanges.isEmpty
            // A link not followed is said: the file it leads to was not read, and may be wanted.
            || outcome.errorCode == SourceLink.refusedCode
        // Each field on its own, so a line feed in a name is escaped and the outcome stays its lines.
        let source = SourcePath.displayed(outcome.source)
        let destination = SourcePath.displayed(outcome.destination ?? "?")
        let error = SourcePath.displayed(outcome.error ?? outcome.source)
        var text: String
        switch outcome.status {
        case .imported:
            guard everything else { return nil }
            text = "\(dryRun ? "would file" : "imported") \(source) -> \(destination)"
            if let rendition = outcome.rendition {
                text += " (and \(SourcePath.displayed((rendition as NSString).lastPathComponent)) beside it)"
            }
            if outcome.motion { text += " (a motion photo: its video kept inside)" }
            if outcome.refiled { text += " (filed again: the library's copy was damaged or missing)" }
            if outcome.damaged { text += " (damaged, filed as it is: \(SourcePath.displayed(outcome.warnings.last ?? "")))" }
            if let rotation = outcome.rotation, rotation != 0 { text += " (players turn it \(rotation) degrees)" }
            if outcome.hasRecords {
                text += " (\(outcome.recordsAdded) new records"
                    + (outcome.recordsDuplicate > 0 ? ", \(outcome.recordsDuplicate) already filed" : "")
                    + (outcome.recordsRemoved > 0 ? ", \(outcome.recordsRemoved) of its earlier version replaced" : "") + ")"
            }
        case .duplicate:
            guard everything else { return nil }
            // A dry run's duplicate may be of what the run would file first, not of what is filed.
            text = dryRun ? "would be a duplicate \(source) (the same as \(destination))" : "duplicate \(source) (already filed as \(destination))"
        case .skipped:
            // A folder or file passed over as it was found (another library, a report's site, a
            // file still being written) is said with why; hidden ones are counted in the summary.
            // One a person must look at, or one taken out of the library on purpose, says why too.
            let passedOver = outcome.stage == .discover && outcome.errorCode != SkippedNames.hiddenCode
            guard everything || passedOver || outcome.leavesSomethingForYou || outcome.errorCode == SourceOutcome.takenOutCode
            else { return nil }
            text = "skipped \(error)"
        case .unassigned:
            text = "unassigned \(error)"
        case .failed:
            text = "failed \(error)"
        }
        if outcome.sourceRemoved && verbose { text += " (source removed)" }
        if let reading = outcome.reading { text += "\n  read: \(SourcePath.displayed(reading))" }
        text += TerminalReporter.profileLines(outcome.profileChanges, dryRun: dryRun)
        text += outcome.problems.map { "\n  problem: \(SourcePath.displayed($0))" }.joined()
        // Which records of its earlier version an edit took out: none goes unseen.
        text += outcome.replacedRecords.map { "\n  replaced: \(SourcePath.displayed($0))" }.joined()
        if outcome.recordsRemoved > outcome.replacedRecords.count, !outcome.replacedRecords.isEmpty {
            text += "\n  replaced: and \(outcome.recordsRemoved - outcome.replacedRecords.count) more"
        }
        // A damaged copy filed again is shown with its warnings: where the damaged bytes now are.
        if verbose || outcome.refiled { text += outcome.warnings.map { "\n  warning: \(SourcePath.displayed($0))" }.joined() }
        return text + "\n"
    }

    /// A line for each profile the source changed, naming the fields, and one for each field typed
    /// by hand it kept, with the value the source gave: a source of many profiles says what it did
    /// to every one, and a difference kept is never silent.
    static func profileLines(_ changes: [ProfileChange], dryRun: Bool) -> String {
        var lines = ""
        for change in changes where !change.changed.isEmpty {
            lines += "\n  profile \(change.subject.path): \(dryRun ? "would change " : "")\(change.changed.joined(separator: ", "))"
        }
        for change in changes {
            for kept in change.keptTyped {
                lines += "\n  kept \(change.subject.path) \(kept.field) \(SourcePath.displayed(kept.kept)), typed by hand; "
                    + "the import said \(SourcePath.displayed(kept.imported)) (--overwrite-profiles takes it)"
            }
        }
        return lines
    }

    static func summaryLine(_ summary: ImportSummary) -> String {
        // A dry run imported nothing: it says what it would do.
        let counts = ImportStatus.allCases.map {
            "\(summary[$0]) \(summary.dryRun && $0 == .imported ? "would import" : $0.rawValue)"
        }.joined(separator: ", ")
        let prefix = (summary.interrupted ? "Interrupted (run the import again to finish): " : "")
            + (summary.dryRun ? "Dry run (nothing written): " : "")
        let noun = summary.total == 1 ? "source" : "sources"
        let replaced = summary.recordsRemoved > 0
            ? "; \(summary.recordsRemoved) \(summary.recordsRemoved == 1 ? "record" : "records") of earlier versions replaced" : ""
        // Why the exit status is 3: what is left for a person, said once more at the end.
        let left = summary.leftForYou > 0
            ? "; \(summary.leftForYou) \(summary.leftForYou == 1 ? "source needs" : "sources need") a look (problems, no subject, "
                // A dry run keeps no problems: there is only the list above to see.
                + "or text that gave no records: see above\(summary.dryRun ? "" : " and `dossier problems`"))" : ""
        let hidden = summary.hidden > 0
            ? "; \(summary.hidden) hidden \(summary.hidden == 1 ? "file or folder" : "files or folders") passed over" : ""
        let links = summary.linksNotFollowed > 0
            ? "; \(summary.linksNotFollowed) \(summary.linksNotFollowed == 1 ? "link" : "links") not followed (see above)" : ""
        let library = summary.library.map { " (library \(SourcePath.displayed($0)))" } ?? ""
        return "\(prefix)\(summary.total) \(noun): \(counts)\(hidden)\(replaced)\(left)\(links) in \(String(format: "%.2f", summary.seconds)) s"
            + "\(library)\n"
    }

    private func drawBar(_ state: inout State, completed: Int, total: Int) {
        state.bar.draw(completed: completed, total: total)
    }

    private func clearBar(_ state: inout State) {
        state.bar.clear()
    }
}
