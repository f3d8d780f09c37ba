import DossierCore
import DossierTestSupport
import Foundation
import Testing

/// `dossier report --out DIR` writes a site of many pages (`index.html`, `assets/report.css`,
/// `pets/<id>/index.html`...): into a person's own folder (`--out ~/Sites` for
/// `~/Sites/dossier`) it must never write over their files.
@Suite("A report never writes over a person's files")
struct ReportSiteSafetyTests {
    let folder: TemporaryFolder

    /// A library with Leo (a photo and a weight) and Mina, and a person's own website in
    /// `Sites/`: its index page, its stylesheet where the report keeps its own, a page where the
    /// report would put Leo's, and a note.
    init() throws {
        folder = try TemporaryFolder()
        for (subject, name) in [("pets/leo", "Leopold"), ("pets/mina", "Minerva")] {
            let added = try DossierBinary.run(["subjects", "add", subject, "--name", name, "--library", "Library"], in: folder.url)
            #expect(added.status == 0, "\(added.standardError)")
        }
        try folder.write(SafetyFixtures.jpeg(seed: 3), to: "dump/pets/leo/IMG_0003.JPG")
        try folder.write("2024-03-01 leo weight 45 g\n", to: "dump/pets/leo/log.txt")
        let imported = try DossierBinary.run(["import", "dump", "--library", "Library"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        try folder.write("<html><body>My own home page</body></html>\n", to: "Sites/index.html")
        try folder.write("body { color: rebeccapurple }\n", to: "Sites/assets/report.css")
        try folder.write("<p>Leo, as I wrote him up</p>\n", to: "Sites/pets/leo/index.html")
        try folder.write("notes\n", to: "Sites/notes.txt")
    }

    func report(_ arguments: [String]) throws -> DossierBinary.Result {
        try DossierBinary.run(["report", "--library", "Library", "--date", "2024-05-19"] + arguments, in: folder.url)
    }

    /// Every file below `relativePath` (hidden ones too) with its bytes.
    func contents(under relativePath: String) -> [String: Data] {
        let root = folder.path(relativePath)
        var found: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return found }
        while let path = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: "\(root)/\(path)", isDirectory: &isFolder), !isFolder.boolValue {
                found[path] = FileManager.default.contents(atPath: "\(root)/\(path)")
            }
        }
        return found
    }

    static let personsFiles = ["index.html", "assets/report.css", "pets/leo/index.html", "notes.txt"]

    @Test("--out into a folder holding a person's files is refused with status 2, naming the folder and what is in it; not a byte changes and nothing is added")
    func aPersonsFolderIsRefused() throws {
        let before = contents(under: "Sites")
        let result = try report(["--out", "Sites"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "dossier: the report's site \(folder.path("Sites")) holds files the report did not write "
            + "(assets, index.html, notes.txt, pets) and no report's mark (.dossier-report); a report is written only into a folder "
            + "that is empty, new, or one it made. Give a folder of its own (--out \(folder.path("Sites"))/dossier), or add --force "
            + "to write beside them (no file it did not write is replaced even then)\n")
        #expect(contents(under: "Sites") == before)
        #expect(Set(before.keys) == Set(ReportSiteSafetyTests.personsFiles))
    }

    @Test("With --force the report writes beside a person's files, never over them: each is left as it was and named, status 3; the next report does the same")
    func forceWritesBesideAPersonsFiles() throws {
        let before = contents(under: "Sites")
        for run in 0..<2 {
            // The first needs --force; the second finds the report's mark and needs none.
            let result = try report(run == 0 ? ["--out", "Sites", "--force"] : ["--out", "Sites"])
            #expect(result.status == 3, "\(result.standardError)")
            let after = contents(under: "Sites")
            for name in ReportSiteSafetyTests.personsFiles {
                #expect(after[name] == before[name], "\(name) changed")
            }
            for name in ["index.html", "assets/report.css", "pets/leo/index.html"] {
                #expect(result.standardError.contains("dossier: left alone \(folder.path("Sites/\(name)")): a file the report did not "
                    + "write is there; the site links to it as it is (move it away and report again for the report's own)\n"),
                        "\(result.standardError)")
            }
            #expect(!result.standardError.contains("left alone \(folder.path("Sites/notes.txt"))"))
            // The rest of the site is the report's.
            for name in [".dossier-report", ".report-state.json", "problems.html", "quarantine.html", "assets/report.js",
                         "pets/mina/index.html"] {
                #expect(after[name] != nil, "\(name) was not written")
            }
            #expect(String(decoding: after["pets/mina/index.html"] ?? Data(), as: UTF8.self).contains("Minerva"))
        }
    }

    @Test("A report's own files are replaced as before once the person's are moved away; the person's page name is then the report's")
    func aNameFreedIsTheReports() throws {
        #expect(try report(["--out", "Sites", "--force"]).status == 3)
        try FileManager.default.removeItem(atPath: folder.path("Sites/pets/leo/index.html"))
        try FileManager.default.removeItem(atPath: folder.path("Sites/index.html"))
        try FileManager.default.removeItem(atPath: folder.path("Sites/assets/report.css"))
        let result = try report(["--out", "Sites"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("left alone"))
        let leo = try String(contentsOfFile: folder.path("Sites/pets/leo/index.html"), encoding: .utf8)
        #expect(leo.contains("Leopold"))
        // A weight added since: the report rewrites the page it now owns.
        try folder.write("2024-04-01 leo weight 47 g\n", to: "more/pets/leo/april.txt")
        #expect(try DossierBinary.run(["import", "more", "--library", "Library"], in: folder.url).status == 0)
        #expect(try report(["--out", "Sites"]).status == 0)
        #expect(try String(contentsOfFile: folder.path("Sites/pets/leo/index.html"), encoding: .utf8) != leo)
        #expect(FileManager.default.contents(atPath: folder.path("Sites/notes.txt")) == Data("notes\n".utf8))
    }

    @Test("An empty folder, a folder not made yet, and a site a report made are written as before, with status 0",
          arguments: ["empty", "new/site", "made"])
    func anEmptyNewOrOwnFolderIsWritten(out: String) throws {
        try FileManager.default.createDirectory(atPath: folder.path("empty"), withIntermediateDirectories: true)
        if out == "made" { #expect(try report(["--out", "made"]).status == 0) }
        let result = try report(["--out", out])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "\(folder.path(out))/index.html\n")
        for name in ["index.html", "assets/report.css", "pets/leo/index.html", "pets/mina/index.html", ".dossier-report"] {
            #expect(FileManager.default.fileExists(atPath: folder.path("\(out)/\(name)")), "\(name)")
        }
    }

    @Test("The library's own report folder follows the same rule: a person's file in it is refused, then left alone with --force")
    func theDefaultSiteFollowsTheRule() throws {
        try folder.write("<p>mine</p>\n", to: "Library/report/index.html")
        let refused = try report([])
        #expect(refused.status == 2, "\(refused.standardError)")
        #expect(refused.standardError.hasPrefix("dossier: the report's site \(folder.path("Library/report")) holds files the report "
            + "did not write (index.html)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("Library/report")) == ["index.html"])
        let forced = try report(["--force"])
        #expect(forced.status == 3, "\(forced.standardError)")
        #expect(FileManager.default.contents(atPath: folder.path("Library/report/index.html")) == Data("<p>mine</p>\n".utf8))
        #expect(FileManager.default.fileExists(atPath: folder.path("Library/report/pets/leo/index.html")))
    }

    @Test("A site made before its state listed its files keeps its pages the report's, and a person's file at a new page's name is left alone")
    func aSiteFromBeforeTheListKeepsItsPages() throws {
        #expect(try report(["--out", "site"]).status == 0)
        // As a report before the list wrote it: the state names only the subjects' pages.
        let statePath = folder.path("site/.report-state.json")
        var state = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statePath))) as? [String: Any])
        state.removeValue(forKey: "files")
        try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: statePath))
        // The person's page where a subject added since will have its page.
        try folder.write("<p>Coco's page, mine</p>\n", to: "site/pets/coco/index.html")
        #expect(try DossierBinary.run(["subjects", "add", "pets/coco", "--name", "Coco", "--library", "Library"], in: folder.url).status == 0)
        let index = try String(contentsOfFile: folder.path("site/index.html"), encoding: .utf8)
        let result = try report(["--out", "site"])
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardError.contains("dossier: left alone \(folder.path("site/pets/coco/index.html"))"), "\(result.standardError)")
        #expect(FileManager.default.contents(atPath: folder.path("site/pets/coco/index.html")) == Data("<p>Coco's page, mine</p>\n".utf8))
        // Its own index, which now shows Coco's card, is written as ever.
        #expect(try String(contentsOfFile: folder.path("site/index.html"), encoding: .utf8) != index)
    }

    @Test("A folder holding a file named as a report's state but no report's mark is no report's site to write over: its files are left alone, status 3")
    func aStrayStateOwnsNothing() throws {
        try folder.write("not a report's state\n", to: "Sites/.report-state.json")
        let before = contents(under: "Sites")
        let result = try report(["--out", "Sites"])
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardError.contains("could not be read: every page is made again, and pages"), "\(result.standardError)")
        let after = contents(under: "Sites")
        for name in ReportSiteSafetyTests.personsFiles { #expect(after[name] == before[name], "\(name) changed") }
        #expect(result.standardError.contains("dossier: left alone \(folder.path("Sites/index.html"))"), "\(result.standardError)")
    }

    @Test("dossier watch --report refuses to start while the library's report folder holds a person's files, writing nothing")
    func watchRefusesAPersonsReportFolder() throws {
        try folder.write("<p>mine</p>\n", to: "Library/report/index.html")
        try FileManager.default.createDirectory(atPath: folder.path("inbox"), withIntermediateDirectories: true)
        // Bounded: a daemon that starts would run until stopped.
        let result = try DossierBinary.run(["watch", "inbox", "--library", "Library", "--report"], in: folder.url,
                                           launcher: ["/usr/bin/timeout", "20"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("dossier: --report: the report's site \(folder.path("Library/report")) holds files "
            + "the report did not write (index.html)"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("Library/report")) == ["index.html"])
    }
}
