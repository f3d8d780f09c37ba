@testable import DossierCore
import Foundation
import Testing
@testable import DossierCLI

@Suite("What the reporters print")
struct ReporterTests {
    let leo = try! Subject(parsing: "pets/leo")

    @Test("A JSON line carries source, status, subject, destination and error, with nulls spelled out")
    func jsonLines() throws {
        let imported = SourceOutcome(source: "/d/a.jpg", status: .imported, subject: leo, destination: "/L/pets/leo/photos/x.jpg")
        #expect(JSONLinesReporter.line(for: imported)
            == #"{"destination":"/L/pets/leo/photos/x.jpg","error":null,"source":"/d/a.jpg","status":"imported","subject":"pets/leo"}"# + "\n")
        let failed = SourceOutcome(source: "/d/b.jpg", status: .failed, error: "/d/b.jpg: JPEG data is corrupt or unsupported: Premature end of JPEG file")
        #expect(JSONLinesReporter.line(for: failed)
            == #"{"destination":null,"error":"/d/b.jpg: JPEG data is corrupt or unsupported: Premature end of JPEG file","source":"/d/b.jpg","status":"failed","subject":null}"# + "\n")
    }

    @Test("The JSON summary counts every status")
    func jsonSummary() {
        var summary = ImportSummary(dryRun: false)
        summary.seconds = 1.23456
        let outcomes: [(ImportStatus, Int)] = [(.imported, 4), (.duplicate, 3), (.unassigned, 2), (.skipped, 1), (.failed, 5)]
        for (status, count) in outcomes {
            for _ in 0..<count { summary.add(SourceOutcome(source: "a", status: status)) }
        }
        // Two sources left something for a person: the unassigned ones (the failed ones failed,
        // the skipped one was no kind of file Dossier reads).
        #expect(JSONLinesReporter.line(for: summary)
            == #"{"summary":{"dryRun":false,"duplicate":3,"failed":5,"hidden":0,"imported":4,"interrupted":false,"leftForYou":2,"linksNotFollowed":0,"recordsRemoved":0,"seconds":1.235,"skipped":1,"total":15,"unassigned":2}}"# + "\n")
    }

    @Test("On a terminal, problems always get a line; imports only with --verbose")
    func terminalLines() {
        let quiet = TerminalReporter(verbose: false, showsProgress: false)
        let imported = SourceOutcome(source: "/d/a.jpg", status: .imported, subject: leo, destination: "/L/x.jpg",
                                     warnings: ["the EXIF block could not be read; the photo is filed as stored"])
        #expect(quiet.line(for: imported, dryRun: false) == nil)
        #expect(quiet.line(for: imported, dryRun: true) == "would file /d/a.jpg -> /L/x.jpg\n")
        let unassigned = SourceOutcome(source: "/d/c.jpg", status: .unassigned, error: "/d/c.jpg: no subject")
        #expect(quiet.line(for: unassigned, dryRun: false) == "unassigned /d/c.jpg: no subject\n")
        let verbose = TerminalReporter(verbose: true, showsProgress: false)
        #expect(verbose.line(for: imported, dryRun: false) == "imported /d/a.jpg -> /L/x.jpg\n"
            + "  warning: the EXIF block could not be read; the photo is filed as stored\n")
    }

    @Test("A verbose line says what was filed beside a HEIC, that a photo moves, and how a video is turned")
    func phoneDumpLines() {
        let verbose = TerminalReporter(verbose: true, showsProgress: false)
        var heic = SourceOutcome(source: "/d/IMG_1.HEIC", status: .imported, subject: leo, destination: "/L/p/x.heic")
        heic.rendition = "/L/p/x.jpg"
        heic.motion = true
        #expect(verbose.line(for: heic, dryRun: false)
            == "imported /d/IMG_1.HEIC -> /L/p/x.heic (and x.jpg beside it) (a motion photo: its video kept inside)\n")
        var movie = SourceOutcome(source: "/d/IMG_2.MOV", status: .imported, subject: leo, destination: "/L/v/y.mov")
        movie.rotation = 90
        #expect(verbose.line(for: movie, dryRun: false) == "imported /d/IMG_2.MOV -> /L/v/y.mov (players turn it 90 degrees)\n")
        movie.rotation = 0
        #expect(verbose.line(for: movie, dryRun: false) == "imported /d/IMG_2.MOV -> /L/v/y.mov\n")
    }

    @Test("The summary line names every count and the time")
    func summaryLine() {
        var summary = ImportSummary(dryRun: true)
        summary.seconds = 2.5
        #expect(TerminalReporter.summaryLine(summary)
            == "Dry run (nothing written): 0 sources: 0 would import, 0 duplicate, 0 unassigned, 0 skipped, 0 failed in 2.50 s\n")
    }
}
