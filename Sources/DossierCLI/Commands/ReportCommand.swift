import ArgumentParser
import DossierCore
import DossierReport
import Foundation

/// `dossier report`: the library as a static site to open in a browser.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the library as a static site: subjects, photos, growth and weight charts, records and problems.",
        discussion: """
            The site opens from the disk in any browser, offline (no scripts, fonts or styles from elsewhere): \
            index.html greets today's birthdays and shows every subject as a card, grouped by class; each \
            subject's page has its profile, weight and length charts (a child's against the WHO Child Growth \
            Standards), its photos and videos by month, its feeding and shedding calendar, its latest 1000 records \
            (every record past that on a page a year) and its problems; problems.html and quarantine.html say what \
            was not filed and what to do.

            It is written to <library>/report/ unless --out names another folder (never inside a subject's \
            folder), and only into a folder that is empty, new, or a site a report made (it holds the mark \
            .dossier-report): a folder holding anything else is refused (status 2) unless --force, and even then \
            no file the report did not write is replaced (each is named, left as it is, and the status is 3). \
            Run again, it reads and writes only what changed since: an unchanged library takes a \
            moment and rewrites nothing. `dossier watch --report` keeps it up to date after each batch; \
            two reports of one site take turns.

            Examples:
              dossier report --library ~/Dossier
              dossier report --out ~/Sites/dossier
              xdg-open ~/Dossier/report/index.html
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Option(help: ArgumentHelp("The folder to write the site into (default: <library>/report).", valueName: "folder"))
    var out: String?

    @Flag(help: "Write into a folder that holds files the report did not write: beside them, never over them.")
    var force = false

    @Option(help: ArgumentHelp("The day the greetings and ages are for, instead of today (YYYY-MM-DD, \(CommandSupport.dateYears)).",
                               valueName: "date"))
    var date: String?

    func validate() throws {
        if let date { _ = try CommandSupport.day(date, option: "--date") }
    }

    func run() throws {
        let layout = libraryOptions.layout
        try CommandSupport.requireLibrary(layout)
        let output = try ReportCommand.output(out, layout: layout)
        try CommandSupport.withLibraryError {
            let day = try date.map { try CommandSupport.day($0, option: "--date") }
                ?? RecordDate.today(in: LibraryTimeZone.of(layout))
            let outcome: ReportSite.Outcome
            do {
                outcome = try ReportSite(layout: layout, output: output, today: day, force: force).generate(waitingForAnotherReport: {
                    StandardStreams.writeError("dossier: another report of \(SourcePath.displayed(output.path)) is being written; waiting for it...\n")
                })
            } catch let error as ReportError {
                // A person's folder: nothing was written.
                StandardStreams.writeError("dossier: \(error)\n")
                throw ExitCode(2)
            } catch LibraryError.symbolicLink(let path) where output.isOutsideLibrary {
                // The site's own folders are walked as the library's are, links refused; but a site
                // elsewhere is not the library, and the library's words would name the wrong place.
                let place = path == output.path ? "the report's site \(SourcePath.displayed(path)) is now a symbolic link"
                    : "\(SourcePath.displayed(path)) is a symbolic link inside the report's site \(SourcePath.displayed(output.path))"
                StandardStreams.writeError("dossier: \(place); Dossier never follows links there (they could lead its writes and "
                    + "deletes outside it): replace it with a real folder or file\n")
                throw ExitCode(2)
            }
            let pages = outcome.subjectsMade + outcome.subjectsUnchanged
            StandardStreams.writeOut("\(output.path)/index.html\n")
            StandardStreams.writeError("dossier: report of \(pages) \(pages == 1 ? "subject" : "subjects"): "
                + "\(outcome.written.count) \(outcome.written.count == 1 ? "file" : "files") written, \(outcome.unchanged) unchanged"
                + (outcome.removed.isEmpty ? "" : ", \(outcome.removed.count) \(outcome.removed.count == 1 ? "page" : "pages") of subjects no longer there removed")
                + (outcome.yearPagesRemoved.isEmpty ? "" : ", \(outcome.yearPagesRemoved.count) "
                    + "\(outcome.yearPagesRemoved.count == 1 ? "year page" : "year pages") no longer needed removed")
                + "\n")
            for warning in outcome.warnings { StandardStreams.writeError("dossier: warning: \(warning)\n") }
            for failure in outcome.thumbnailFailures {
                StandardStreams.writeError("dossier: warning: no thumbnail: \(SourcePath.displayed(failure)); its page shows the file itself (a picture, or a link to it) "
                    + "or a video's icon instead\n")
            }
            for failure in outcome.failures { StandardStreams.writeError("dossier: \(SourcePath.displayed("\(failure)"))\n") }
            for name in outcome.leftAlone { StandardStreams.writeError("dossier: \(ReportCommand.leftAlone(name, in: output))\n") }
            if !outcome.failures.isEmpty { throw ExitCode(1) }
            if !outcome.leftAlone.isEmpty { throw ExitCode(3) }
        }
    }

    /// What a report says of a name it would write that holds a file it did not write.
    static func leftAlone(_ name: String, in output: ReportOutput) -> String {
        "left alone \(SourcePath.displayed("\(output.path)/\(name)")): a file the report did not write is there; the site links to it as "
            + "it is (move it away and report again for the report's own)"
    }

    /// `--out` resolved, or refused as a bad command line (status 64) saying why.
    static func output(_ out: String?, layout: LibraryLayout) throws -> ReportOutput {
        do {
            return try ReportOutput.resolve(out, layout: layout)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
