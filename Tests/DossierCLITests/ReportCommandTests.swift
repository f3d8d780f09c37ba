import CImageShims
import DossierCore
import DossierTestSupport
import Foundation
import Testing

@Suite("dossier report, end to end through the binary")
struct ReportCommandTests {
    let folder: TemporaryFolder

    /// A library of a leopard gecko with photos, weights, feedings and sheds from a notepad log; a
    /// girl with weights and heights; a crested gecko whose notes hold markup.
    init() throws {
        folder = try TemporaryFolder()
        for arguments in [
            ["subjects", "add", "pets/leo", "--name", "레오", "--alias", "Leo", "--born", "2022-06-01", "--species", "레게",
             "--morph", "마크스노우"],
            ["subjects", "add", "children/mina", "--name", "민아", "--born", "2024-02-10", "--sex", "girl"],
            ["subjects", "add", "pets/coco", "--name", "코코 \"<b>\"", "--alias", "코코", "--species", "crested gecko",
             "--notes", "<script>alert(\"x\")</script> & more"],
        ] {
            let result = try DossierBinary.run(arguments + ["--library", "Library"], in: folder.url)
            #expect(result.status == 0, "\(result.standardError)")
        }
        try folder.write("""
            2023.05.01 레오 귀뚜라미 5마리
            5/3 레오 탈피 (완탈)
            2023년 5월 7일 레오 체중 45g
            2023.06.15 레오 탈피
            2023.07.01 레오 체중 0.05kg
            2023.07.20 레오 탈피
            2023.05.10 코코 밀웜 10 <img src=x onerror=alert(1)>

            """, to: "dump/care.txt")
        try folder.write("""
            2024-02-10 민아 체중 3.2kg
            2024-02-10 민아 키 49.5cm
            2024-03-12 민아 체중 4300g
            2024-05-20 민아 키 60.1cm
            2024-08-10 민아 체중 7.1kg

            """, to: "dump/mina.txt")
        for seed in 0..<3 {
            try folder.write(ReportCommandTests.jpeg(seed: seed), to: "dump/pets/leo/IMG_000\(seed).JPG")
        }
        let imported = try DossierBinary.run(["import", "dump", "--library", "Library"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
    }

    func report(_ extra: [String] = []) throws -> DossierBinary.Result {
        try DossierBinary.run(["report", "--library", "Library", "--date", "2024-05-19"] + extra, in: folder.url)
    }

    func page(_ relativePath: String) throws -> String {
        try String(contentsOfFile: folder.path("Library/report/\(relativePath)"), encoding: .utf8)
    }

    func records(_ subject: String) throws -> [[String: Any]] {
        try DossierBinary.run(["records", subject, "--library", "Library", "--json"], in: folder.url).jsonLines
    }

    /// `date value unit` of each circle of the chart whose `data-series` is `series`, in order.
    static func circles(in html: String, series: String) -> [String]? {
        guard let start = html.range(of: "<svg class=\"chart\" data-series=\"\(series)\""),
              let end = html.range(of: "</svg>", range: start.upperBound..<html.endIndex) else { return nil }
        let chart = html[start.upperBound..<end.lowerBound]
        let pattern = try! NSRegularExpression(pattern: "<circle [^>]*data-date=\"([^\"]*)\" data-value=\"([^\"]*)\" data-unit=\"([^\"]*)\"")
        let text = String(chart)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (1...3).map { String(text[Range(match.range(at: $0), in: text)!]) }.joined(separator: " ")
        }
    }

    /// `date value unit` of each record of `kind` with a measurement in `unit`, as `records --json` gives them.
    func expected(_ subject: String, kind: String, unit: String) throws -> [String] {
        try records(subject).compactMap { record in
            guard record["kind"] as? String == kind,
                  let measurement = (record["measurements"] as? [[String: Any]])?.first(where: { $0["unit"] as? String == unit }),
                  let value = measurement["value"] as? Double, let date = record["date"] as? String else { return nil }
            return "\(date.prefix(10)) \(RecordLine.number(value)) \(unit)"
        }
    }

    static func rowIDs(in html: String) -> [String] {
        guard let start = html.range(of: "<table class=\"records\""), let end = html.range(of: "</table>", range: start.upperBound..<html.endIndex)
        else { return [] }
        let table = String(html[start.upperBound..<end.lowerBound])
        let pattern = try! NSRegularExpression(pattern: "<tr data-id=\"([0-9a-f]{16})\">")
        return pattern.matches(in: table, range: NSRange(table.startIndex..., in: table)).map {
            String(table[Range($0.range(at: 1), in: table)!])
        }
    }

    /// Every file under the site's folder with its inode and modification time.
    func stamps() -> [String: String] {
        var stamps: [String: String] = [:]
        for path in folder.files(under: "Library/report") {
            var info = stat()
            guard lstat(folder.path("Library/report/\(path)"), &info) == 0 else { continue }
            stamps[path] = "\(info.st_ino) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
        return stamps
    }

    /// Holds the `flock` a report takes on its site's folder, as another report under way would.
    func lockSite(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(descriptor >= 0)
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        return descriptor
    }

    /// Starts `dossier report` (its standard error into a file) and waits until it says it waits
    /// for another report of its site.
    func startWaitingReport(_ extra: [String] = []) async throws -> (process: Process, errors: () throws -> String) {
        let errorsPath = folder.path("report-errors.txt")
        try #require(FileManager.default.createFile(atPath: errorsPath, contents: nil))
        let process = DossierBinary.process(["report", "--library", "Library", "--date", "2024-05-19"] + extra, in: folder.url)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorsPath))
        try process.run()
        let errors = { try String(contentsOfFile: errorsPath, encoding: .utf8) }
        #expect(await waitUntil("the report to say it waits") { ((try? errors()) ?? "").contains("waiting for it") })
        return (process, errors)
    }

    /// Every file under `relativePath` with its bytes.
    func contents(under relativePath: String) -> [String: Data] {
        folder.files(under: relativePath).reduce(into: [String: Data]()) {
            $0[$1] = FileManager.default.contents(atPath: folder.path("\(relativePath)/\($1)"))
        }
    }

    @Test("A report waits while another report of the same site is written, says so, then writes its own")
    func secondReportOfOneSiteWaits() async throws {
        #expect(try report().status == 0)
        try folder.write("2024.05.01 레오 체중 55g\n", to: "more/pets/leo/may.txt")
        #expect(try DossierBinary.run(["import", "more", "--library", "Library"], in: folder.url).status == 0)

        let site = try lockSite(folder.path("Library/report"))
        defer { close(site) }
        let before = stamps()
        let (process, errors) = try await startWaitingReport()
        #expect(process.isRunning)
        #expect(stamps() == before)

        flock(site, LOCK_UN)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let said = try errors()
        #expect(said.hasPrefix("dossier: another report of \(folder.path("Library/report")) is being written; waiting for it...\n"), "\(said)")
        #expect(ReportCommandTests.circles(in: try page("pets/leo/index.html"), series: "weight")?.last == "2024-05-01 55 g")
    }

    @Test("A site moved away while a report waits for it is left alone: the report waits for the folder now at the site's path, then writes there")
    func siteMovedWhileWaitingIsNotWrittenUnlocked() async throws {
        #expect(try report().status == 0)
        try folder.write("2024.05.01 레오 체중 55g\n", to: "more/pets/leo/may.txt")
        #expect(try DossierBinary.run(["import", "more", "--library", "Library"], in: folder.url).status == 0)
        let old = try lockSite(folder.path("Library/report"))
        let (process, _) = try await startWaitingReport()

        // The site moves away, and another report (this test) holds the folder now in its place.
        try FileManager.default.moveItem(atPath: folder.path("Library/report"), toPath: folder.path("Library/report-old"))
        try FileManager.default.createDirectory(atPath: folder.path("Library/report"), withIntermediateDirectories: false)
        let new = try lockSite(folder.path("Library/report"))
        let moved = contents(under: "Library/report-old")
        close(old)
        // Time for a report that did not look again to write the site: an absence, which no condition shows.
        try await Task.sleep(for: .milliseconds(700))
        #expect(process.isRunning)
        #expect(folder.files(under: "Library/report").isEmpty)

        close(new)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(ReportCommandTests.circles(in: try page("pets/leo/index.html"), series: "weight")?.last == "2024-05-01 55 g")
        #expect(FileManager.default.fileExists(atPath: folder.path("Library/report/\(SkippedNames.reportSiteMark)")))
        #expect(contents(under: "Library/report-old") == moved)
    }

    @Test("A site replaced by a link while a report waits for it is refused, and nothing is written where the link leads")
    func siteReplacedByALinkWhileWaitingIsRefused() async throws {
        let site = folder.path("site")
        #expect(try report(["--out", site]).status == 0)
        let lock = try lockSite(site)
        let (process, errors) = try await startWaitingReport(["--out", site])
        try FileManager.default.moveItem(atPath: site, toPath: folder.path("site-old"))
        try FileManager.default.createSymbolicLink(atPath: site, withDestinationPath: folder.path("Library/pets/leo"))
        let leo = contents(under: "Library/pets/leo")
        close(lock)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        let said = try errors()
        #expect(said.hasSuffix("dossier: the report's site \(site) is now a symbolic link; Dossier never follows links there (they could "
            + "lead its writes and deletes outside it): replace it with a real folder or file\n"), "\(said)")
        #expect(contents(under: "Library/pets/leo") == leo)
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/pets/leo/\(SkippedNames.reportSiteMark)")))
    }

    @Test("--out below a file is refused as a bad command line naming the file where a folder belongs")
    func outBelowAFileIsRefusedNamingTheFile() throws {
        try folder.write("not a folder\n", to: "notes.txt")
        let result = try report(["--out", folder.path("notes.txt/site")])
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Error: --out \(folder.path("notes.txt/site")): cannot be made: \(folder.path("notes.txt")) "
            + "is a file where a folder belongs\n"), "\(result.standardError)")
        #expect(try String(contentsOfFile: folder.path("notes.txt"), encoding: .utf8) == "not a folder\n")
    }

    @Test("A report that changes nothing leaves the site's folder, its mark and every page as they were")
    func unchangedReportTouchesNothing() throws {
        #expect(try report().status == 0)
        func stamp(_ path: String) throws -> String {
            var info = stat()
            try #require(lstat(folder.path(path), &info) == 0, "\(path) is there")
            return "\(info.st_ino) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
        // The mark is the first report's: `import` and `watch` pass the site over from the start.
        let site = try stamp("Library/report"), mark = try stamp("Library/report/\(SkippedNames.reportSiteMark)")
        let pages = stamps()
        #expect(try report().status == 0)
        #expect(try stamp("Library/report") == site)
        #expect(try stamp("Library/report/\(SkippedNames.reportSiteMark)") == mark)
        #expect(stamps() == pages)
    }

    @Test("Each chart has exactly one circle per record drawn, with the record's date, value and unit")
    func chartsHaveOneCirclePerRecord() throws {
        let result = try report()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == folder.url.standardizedFileURL.resolvingSymlinksInPath().path + "/Library/report/index.html\n")
        let leo = try page("pets/leo/index.html")
        #expect(ReportCommandTests.circles(in: leo, series: "weight") == ["2023-05-07 45 g", "2023-07-01 50 g"])
        #expect(ReportCommandTests.circles(in: leo, series: "weight") == (try expected("pets/leo", kind: "weight", unit: "g")))
        #expect(ReportCommandTests.circles(in: leo, series: "length") == nil, "no chart without records")
        let mina = try page("children/mina/index.html")
        let weights = try expected("children/mina", kind: "weight", unit: "g")
        let heights = try expected("children/mina", kind: "height", unit: "cm")
        #expect(weights == ["2024-02-10 3200 g", "2024-03-12 4300 g", "2024-08-10 7100 g"])
        #expect(heights == ["2024-02-10 49.5 cm", "2024-05-20 60.1 cm"])
        #expect(ReportCommandTests.circles(in: mina, series: "weight") == weights)
        #expect(ReportCommandTests.circles(in: mina, series: "length") == heights)
        #expect(ReportCommandTests.circles(in: mina, series: "weight-for-age") == weights)
        #expect(ReportCommandTests.circles(in: mina, series: "length-for-age") == heights)
        #expect(mina.contains("WHO Child Growth Standards (2006)"))
        #expect(mina.contains("class=\"band-outer\""))
    }

    @Test("A line that gives a weight and a length is one record drawn on both charts")
    func aRecordWithTwoQuantitiesIsOnBothCharts() throws {
        try folder.write("2024-09-10 민아 weight 7.6 kg, length 68.2 cm\n", to: "more/mina.txt")
        #expect(try DossierBinary.run(["import", "more", "--library", "Library"], in: folder.url).status == 0)
        #expect(try report().status == 0)
        let mina = try page("children/mina/index.html")
        #expect(ReportCommandTests.circles(in: mina, series: "weight")?.last == "2024-09-10 7600 g")
        #expect(ReportCommandTests.circles(in: mina, series: "length") == ["2024-02-10 49.5 cm", "2024-05-20 60.1 cm", "2024-09-10 68.2 cm"])
        #expect(ReportCommandTests.circles(in: mina, series: "length-for-age")?.last == "2024-09-10 68.2 cm")
    }

    @Test("The records table has one row per record, with the id records --json gives it")
    func recordsTableHasOneRowPerRecord() throws {
        #expect(try report().status == 0)
        for subject in ["pets/leo", "children/mina", "pets/coco"] {
            let ids = try records(subject).compactMap { $0["id"] as? String }
            #expect(!ids.isEmpty)
            #expect(ReportCommandTests.rowIDs(in: try page("\(subject)/index.html")) == ids.reversed(), "\(subject)")
        }
    }

    @Test("Names, notes and log lines holding markup show as text, never as markup")
    func userTextIsEscaped() throws {
        #expect(try report().status == 0)
        let coco = try page("pets/coco/index.html")
        #expect(coco.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more"))
        #expect(coco.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(coco.contains("<title>코코 &quot;&lt;b&gt;&quot;</title>"))
        for html in [coco, try page("index.html")] {
            #expect(!html.contains("<script>alert"))
            #expect(!html.contains("<img src=x"))
            #expect(!html.contains("\"<b>\""))
        }
    }

    @Test("Korean names render: UTF-8 pages, the names marked lang=ko, a viewport for phones")
    func koreanNames() throws {
        #expect(try report().status == 0)
        let index = try page("index.html")
        for html in [index, try page("pets/leo/index.html")] {
            #expect(html.contains("<meta charset=\"utf-8\">"))
            #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
        }
        #expect(index.contains("<span lang=\"ko\">레오</span>"))
        #expect(index.contains("<span lang=\"ko\">민아</span>"))
        #expect(try page("pets/leo/index.html").contains("<h1><span lang=\"ko\">레오</span></h1>"))
    }

    @Test("The index greets a child on her 100th day and shows every subject as a card in its class, with its latest photo")
    func indexGreetsAndGroups() throws {
        #expect(try report().status == 0)
        let index = try page("index.html")
        #expect(index.contains("<h2>Today, 2024-05-19</h2>"))
        #expect(index.contains("<span lang=\"ko\">민아</span></a>: 100th day (백일)</li>"))
        #expect(index.contains("<section class=\"group\" data-class=\"children\">"))
        #expect(index.contains("<section class=\"group\" data-class=\"reptile\">"))
        #expect(index.components(separatedBy: "<article class=\"card\" data-class=\"reptile\"").count == 3)
        #expect(index.contains("<dt>weight</dt><dd>50 g <span class=\"muted\">(2023-07-01)</span></dd>"))
        // The latest photo as its thumbnail from the library's cache, made by the report.
        let thumbnail = try #require(index.range(of: "<img src=\"../.dossier/thumbs/").map { index[$0.upperBound...].prefix(75) })
        #expect(thumbnail.hasSuffix("-320.jpg"), "\(thumbnail)")
        #expect(FileManager.default.fileExists(atPath: folder.path("Library/.dossier/thumbs/\(thumbnail)")))
        let leo = try page("pets/leo/index.html")
        #expect(leo.components(separatedBy: "loading=\"lazy\"").count == 4, "three photos, each lazy")
        #expect(leo.contains("<tr><td>2023-07-20</td><td>35</td></tr>"), "the days between sheds")
    }

    @Test("A second report with nothing changed rewrites nothing; after an import for one subject, only its page and the index change")
    func incremental() throws {
        #expect(try report().status == 0)
        let first = stamps()
        #expect(first.keys.contains("pets/leo/index.html"))
        let again = try report()
        #expect(again.status == 0)
        #expect(again.standardError.contains(" 0 files written"), "\(again.standardError)")
        #expect(stamps() == first)

        try folder.write("2024.05.01 레오 체중 55g\n", to: "more/pets/leo/may.txt")
        #expect(try DossierBinary.run(["import", "more", "--library", "Library"], in: folder.url).status == 0)
        #expect(try report().status == 0)
        let after = stamps()
        let changed = Set(after.keys.filter { after[$0] != first[$0] })
        #expect(changed == ["index.html", "pets/leo/index.html", ".report-state.json"])
        #expect(ReportCommandTests.circles(in: try page("pets/leo/index.html"), series: "weight")?.last == "2024-05-01 55 g")
    }

    @Test("A page cut short or edited by hand since the last report is made again, though nothing in the library changed")
    func damagedPageIsMadeAgain() throws {
        #expect(try report().status == 0)
        let whole = try page("pets/leo/index.html")
        let cut = String(whole.prefix(whole.utf8.count / 2))
        try cut.write(toFile: folder.path("Library/report/pets/leo/index.html"), atomically: false, encoding: .utf8)
        let mina = try page("children/mina/index.html")
        let edited = mina.replacingOccurrences(of: "<main>", with: "<mainX")
        #expect(edited.utf8.count == mina.utf8.count)
        try edited.write(toFile: folder.path("Library/report/children/mina/index.html"), atomically: false, encoding: .utf8)
        let again = try report()
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try page("pets/leo/index.html") == whole)
        #expect(try page("children/mina/index.html") == mina)
    }

    @Test("The page of a subject gone from the library is removed with its folder; a folder holding a file of the user's stays with it")
    func pagesOfSubjectsGoneAreRemoved() throws {
        #expect(try report().status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path("Library/report/pets/coco/index.html")))
        try folder.write("mine\n", to: "Library/report/children/mina/my-notes.txt")
        try FileManager.default.moveItem(atPath: folder.path("Library/pets/coco"), toPath: folder.path("coco-kept-aside"))
        try FileManager.default.moveItem(atPath: folder.path("Library/children/mina"), toPath: folder.path("mina-kept-aside"))
        let result = try report()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("2 pages of subjects no longer there removed"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/report/pets/coco")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/report/children/mina/index.html")))
        #expect(try String(contentsOfFile: folder.path("Library/report/children/mina/my-notes.txt"), encoding: .utf8) == "mine\n")
        #expect(FileManager.default.fileExists(atPath: folder.path("Library/report/pets/leo/index.html")))
        let index = try page("index.html")
        #expect(!index.contains("pets/coco/") && !index.contains("children/mina/") && index.contains("pets/leo/index.html"))
        // Back in the library, its page is made again.
        try FileManager.default.moveItem(atPath: folder.path("coco-kept-aside"), toPath: folder.path("Library/pets/coco"))
        #expect(try report().status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path("Library/report/pets/coco/index.html")))
    }

    /// A weight log of `days` rows for the crested gecko, a day apart from 2021-01-01 (so 1,205
    /// rows reach into 2024), at `dump-big/pets/coco/weights.csv` (a smaller one later is a new
    /// version of the same source), imported.
    func importWeightLog(days: Int) throws {
        let notes = ["after shedding", "before feeding", "on the kitchen scale", "", "grumpy", "tail kept"]
        var csv = "Date,Weight (g),Note\n"
        let start = Calendar(identifier: .gregorian).date(from: DateComponents(timeZone: TimeZone(identifier: "UTC"), year: 2021, month: 1, day: 1))!
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        for day in 0..<days {
            let date = formatter.string(from: start.addingTimeInterval(Double(day) * 86_400))
            csv += "\(date),\(30 + day % 17),\(notes[day % notes.count])\n"
        }
        try folder.write(csv, to: "dump-big/pets/coco/weights.csv")
        let imported = try DossierBinary.run(["import", "dump-big", "--library", "Library"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
    }

    @Test("A subject with more records than its page lists shows the latest 1000 and links a page per year; the year pages list every record once")
    func manyRecordsArePagedByYear() throws {
        try importWeightLog(days: 1205)
        let result = try report()
        #expect(result.status == 0, "\(result.standardError)")
        let ids = try records("pets/coco").compactMap { $0["id"] as? String }
        let dates = try records("pets/coco").compactMap { $0["date"] as? String }
        #expect(ids.count == 1206)
        let coco = try page("pets/coco/index.html")
        #expect(ReportCommandTests.rowIDs(in: coco) == Array(ids.suffix(1000).reversed()))
        #expect(coco.contains("<h2>Records (1206)</h2>"))
        // 2023 holds the notepad's line of 2023-05-10 besides the log's 365 days.
        #expect(coco.contains("Every record, by year: <a href=\"records-2024.html\">2024</a> (110), <a href=\"records-2023.html\">2023</a> (366), "
                              + "<a href=\"records-2022.html\">2022</a> (365), <a href=\"records-2021.html\">2021</a> (365)."))
        var listed: [String] = []
        for year in [2024, 2023, 2022, 2021] {
            let yearPage = try page("pets/coco/records-\(year).html")
            let rows = ReportCommandTests.rowIDs(in: yearPage)
            let expected = zip(ids, dates).filter { $0.1.hasPrefix("\(year)-") }.map(\.0).reversed()
            #expect(rows == Array(expected), "\(year)")
            #expect(yearPage.contains("<a href=\"index.html\">"))
            listed += rows
        }
        #expect(listed == ids.reversed())
        // A page with fewer records lists them all, with no year pages.
        #expect(!folder.files(under: "Library/report/pets/leo").contains { $0.hasPrefix("records-") })
        // Nothing changed: nothing is written again.
        let before = stamps()
        let again = try report()
        #expect(again.standardError.contains(" 0 files written"), "\(again.standardError)")
        #expect(stamps() == before)
        // A year page cut short is made again, though nothing in the library changed.
        let whole = try page("pets/coco/records-2022.html")
        try String(whole.prefix(whole.count / 3)).write(toFile: folder.path("Library/report/pets/coco/records-2022.html"),
                                                        atomically: false, encoding: .utf8)
        #expect(try report().status == 0)
        #expect(try page("pets/coco/records-2022.html") == whole)
    }

    @Test("Year pages go once a subject's records fit on its page, and with the subject; a path edited into the state is never removed")
    func yearPagesGoWhenNoLongerNeeded() throws {
        try importWeightLog(days: 1205)
        #expect(try report().status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path("Library/report/pets/coco/records-2021.html")))
        // The state names a page that is no year page of coco's: it is never read or removed.
        let statePath = folder.path("Library/report/.report-state.json")
        var state = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statePath))) as? [String: Any])
        var subjects = try #require(state["subjects"] as? [String: Any])
        var entry = try #require(subjects["pets/coco"] as? [String: Any])
        var yearPages = try #require(entry["yearPages"] as? [String: String])
        #expect(yearPages.keys.sorted() == (2021...2024).map { "pets/coco/records-\($0).html" })
        yearPages["pets/leo/index.html"] = "0"
        yearPages["pets/coco/../../index.html"] = "0"
        entry["yearPages"] = yearPages
        subjects["pets/coco"] = entry
        state["subjects"] = subjects
        try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: statePath))

        // The log edited down to 20 days: its records now fit on the page.
        try importWeightLog(days: 20)
        #expect(try records("pets/coco").count == 21)
        let leoBefore = stamps()["pets/leo/index.html"]
        let shrunk = try report()
        #expect(shrunk.status == 0, "\(shrunk.standardError)")
        #expect(shrunk.standardError.contains(", 4 year pages no longer needed removed"), "\(shrunk.standardError)")
        #expect(folder.files(under: "Library/report/pets/coco") == ["index.html"])
        #expect(ReportCommandTests.rowIDs(in: try page("pets/coco/index.html")).count == 21)
        // Never removed (and so never written again either).
        #expect(leoBefore != nil && stamps()["pets/leo/index.html"] == leoBefore)
        #expect(FileManager.default.fileExists(atPath: folder.path("Library/report/index.html")))

        // Many again, then the subject gone: its page and year pages go, and its folder.
        try importWeightLog(days: 1205)
        #expect(try report().status == 0)
        #expect(folder.files(under: "Library/report/pets/coco").count == 5)
        try FileManager.default.moveItem(atPath: folder.path("Library/pets/coco"), toPath: folder.path("coco-kept-aside"))
        let gone = try report()
        #expect(gone.status == 0, "\(gone.standardError)")
        #expect(gone.standardError.contains(", 1 page of subjects no longer there removed, 4 year pages no longer needed removed\n"),
                "\(gone.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/report/pets/coco")))
    }

    @Test("A state naming a file with a year page's name but no year's (records-12345.html) never has it removed")
    func onlyYearsThatCanBeAreYearPages() throws {
        try importWeightLog(days: 1205)
        #expect(try report().status == 0)
        try folder.write("mine\n", to: "Library/report/pets/coco/records-12345.html")
        try folder.write("mine\n", to: "Library/report/pets/coco/records-0000.html")
        // Named among coco's year pages (the state's list of the files it wrote names them too).
        let statePath = folder.path("Library/report/.report-state.json")
        var state = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statePath))) as? [String: Any])
        var subjects = try #require(state["subjects"] as? [String: Any])
        var entry = try #require(subjects["pets/coco"] as? [String: Any])
        var yearPages = try #require(entry["yearPages"] as? [String: String])
        #expect(yearPages["pets/coco/records-2021.html"] != nil)
        yearPages["pets/coco/records-12345.html"] = "0"
        yearPages["pets/coco/records-0000.html"] = "0"
        entry["yearPages"] = yearPages
        subjects["pets/coco"] = entry
        state["subjects"] = subjects
        state["files"] = ((state["files"] as? [String]) ?? []) + ["pets/coco/records-12345.html", "pets/coco/records-0000.html"]
        try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: statePath))
        try importWeightLog(days: 20)
        let shrunk = try report()
        #expect(shrunk.standardError.contains(", 4 year pages no longer needed removed"), "\(shrunk.standardError)")
        #expect(folder.files(under: "Library/report/pets/coco").sorted() == ["index.html", "records-0000.html", "records-12345.html"])
    }

    @Test("A year page is never removed before the page linking to it is written: a report that fails midway leaves no link dangling")
    func noDanglingYearLinks() throws {
        try importWeightLog(days: 1205)
        #expect(try report().status == 0)
        // 2021's records gone (its year file moved away): the 841 left fit on the page, so every
        // year page is to go.
        try FileManager.default.moveItem(atPath: folder.path("Library/pets/coco/records/2021.jsonl"), toPath: folder.path("2021.jsonl"))
        // The site's staging is a file: nothing can be written.
        try FileManager.default.removeItem(atPath: folder.path("Library/report/.staging"))
        try folder.write("in the way\n", to: "Library/report/.staging")
        let failed = try report()
        #expect(failed.status == 2, "\(failed.standardError)")
        let coco = try page("pets/coco/index.html")
        #expect(coco.contains("<a href=\"records-2021.html\">"))
        #expect(FileManager.default.fileExists(atPath: folder.path("Library/report/pets/coco/records-2021.html")))
        // Once it can write, the page links no year page and they go.
        try FileManager.default.removeItem(atPath: folder.path("Library/report/.staging"))
        let mended = try report()
        #expect(mended.status == 0, "\(mended.standardError)")
        #expect(!(try page("pets/coco/index.html")).contains("records-20"))
        #expect(folder.files(under: "Library/report/pets/coco") == ["index.html"])
    }

    @Test("The latest records are the latest by date, even when a year file edited by hand holds them out of order")
    func latestByDateNotByFileOrder() throws {
        try importWeightLog(days: 1205)
        let yearFile = folder.path("Library/pets/coco/records/2022.jsonl")
        var lines = try String(contentsOfFile: yearFile, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        // The last line of 2022 dated 2025-06-01 and moved to the top: the newest record of all.
        let moved = lines.removeLast().replacingOccurrences(of: "\"2022-12-31", with: "\"2025-06-01")
        #expect(moved.contains("\"2025-06-01"))
        lines.insert(moved, at: 0)
        try (lines.joined(separator: "\n") + "\n").write(toFile: yearFile, atomically: false, encoding: .utf8)
        #expect(try report().status == 0)
        let coco = try page("pets/coco/index.html")
        let rows = ReportCommandTests.rowIDs(in: coco)
        #expect(rows.count == 1000)
        let first = try #require(coco.range(of: "<tr data-id="))
        #expect(coco[first.lowerBound...].prefix(80).contains("<td>2025-06-01"), "\(coco[first.lowerBound...].prefix(200))")
        // Its year page lists it, in date order among its own.
        let page2025 = try page("pets/coco/records-2025.html")
        #expect(ReportCommandTests.rowIDs(in: page2025).count == 1)
        #expect(!(try page("pets/coco/records-2022.html")).contains("<td>2025-06-01"))
    }

    @Test("A right-to-left override in a name turns no year around on a year page: the name comes last, isolated")
    func yearPageTitleKeepsTheYearBeforeTheName() throws {
        try importWeightLog(days: 1205)
        let edited = try DossierBinary.run(["subjects", "edit", "pets/coco", "--name", "Coco\u{202E}evil", "--library", "Library"], in: folder.url)
        #expect(edited.status == 0, "\(edited.standardError)")
        #expect(try report().status == 0)
        let yearPage = try page("pets/coco/records-2021.html")
        #expect(yearPage.contains("<title>Records of 2021 · Coco\u{202E}evil</title>"))
        #expect(yearPage.contains("<h1><bdi>Records of 2021 · Coco\u{202E}evil</bdi></h1>"))
    }

    @Test("A site state that cannot be read is said: every page is made again, and what it named may stay")
    func unreadableStateIsSaid() throws {
        #expect(try report().status == 0)
        try Data([0xFF, 0xFE, 0x20, 0x67]).write(to: URL(fileURLWithPath: folder.path("Library/report/.report-state.json")))
        let result = try report()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("dossier: warning: the site's record of its last report ("
                                              + folder.path("Library/report/.report-state.json") + ") could not be read: every page is made again"),
                "\(result.standardError)")
        #expect(try report().standardError.contains("warning") == false)
        // A state larger than any report writes is not read into memory: valid JSON behind 64 MiB
        // of spaces is said as unreadable too.
        let state = try Data(contentsOf: URL(fileURLWithPath: folder.path("Library/report/.report-state.json")))
        try (Data(repeating: 0x20, count: 64 << 20) + state).write(to: URL(fileURLWithPath: folder.path("Library/report/.report-state.json")))
        #expect(try report().standardError.contains("dossier: warning: the site's record of its last report ("))
    }

    @Test("A video no poster frame can be made of is an icon with its length that opens it; nothing of it is fetched until played")
    func videoWithoutPosterIsAnIconWithItsLength() throws {
        var movie = TestMovie()
        movie.movieHeaderCreation = TestMovie.quickTimeSeconds(Date(timeIntervalSince1970: 1_683_000_000))
        movie.durationUnits = 600 * 83 + 200
        try folder.write(movie.bytes, to: "clips/pets/leo/VID_0001.MOV")
        #expect(try DossierBinary.run(["import", "clips", "--library", "Library"], in: folder.url).status == 0)
        let video = try #require(folder.files(under: "Library/pets/leo/videos").first)
        #expect(try report().status == 0)
        let leo = try page("pets/leo/index.html")
        #expect(leo.contains("<figure><a class=\"video-icon\" href=\"../../../pets/leo/videos/\(video)\" title=\"Play\">&#9654;<span> 1:23</span></a>"
                             + "<figcaption>2023-05-02 video 1:23</figcaption></figure>"), "\(leo)")
        #expect(!leo.contains("preload=\"metadata\""))
    }

    @Test("A video is shown with its poster frame where ffmpeg makes one", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")))
    func videoWithPoster() throws {
        let made = try Process.run(URL(fileURLWithPath: "/usr/bin/ffmpeg"),
                                   arguments: ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10:duration=3",
                                               "-pix_fmt", "yuv420p", folder.path("clip.mp4")])
        made.waitUntilExit()
        #expect(made.terminationStatus == 0)
        try FileManager.default.createDirectory(atPath: folder.path("clips/pets/leo"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: folder.path("clip.mp4"), toPath: folder.path("clips/pets/leo/clip.mp4"))
        #expect(try DossierBinary.run(["import", "clips", "--library", "Library"], in: folder.url).status == 0)
        let video = try #require(folder.files(under: "Library/pets/leo/videos").first)
        let digest = ContentDigest(of: Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("Library/pets/leo/videos/\(video)"))))).hex
        let result = try report()
        #expect(result.status == 0, "\(result.standardError)")
        let leo = try page("pets/leo/index.html")
        let poster = "../../../.dossier/thumbs/\(digest.prefix(2))/\(digest)-320.jpg"
        #expect(leo.contains("<video controls preload=\"none\" poster=\"\(poster)\" src=\"../../../pets/leo/videos/\(video)\"></video>"), "\(leo)")
        #expect(leo.contains("video 0:03</figcaption>"))
        #expect(FileManager.default.fileExists(atPath: folder.path("Library/.dossier/thumbs/\(digest.prefix(2))/\(digest)-320.jpg")))
    }

    @Test("The page of a subject whose profile was damaged at the last report is still removed once the subject is gone")
    func pageOfSubjectThatFailedIsRemovedOnceGone() throws {
        #expect(try report().status == 0)
        try folder.write("not json {", to: "Library/pets/coco/profile.json")
        let failed = try report()
        #expect(failed.status == 1, "\(failed.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.path("Library/report/pets/coco/index.html")))
        try FileManager.default.moveItem(atPath: folder.path("Library/pets/coco"), toPath: folder.path("coco-kept-aside"))
        let result = try report()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("1 page of subjects no longer there removed"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/report/pets/coco")))
    }

    @Test("A staged page a killed report left is removed by the next once a day old; a younger one may be another report's and stays")
    func abandonedStagedPagesAreRemoved() throws {
        #expect(try report().status == 0)
        try folder.write("<html", to: "Library/report/.staging/old.part")
        try folder.write("<html", to: "Library/report/.staging/young.part")
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-25 * 3600)],
                                              ofItemAtPath: folder.path("Library/report/.staging/old.part"))
        #expect(try report().status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("Library/report/.staging")) == ["young.part"])
    }

    @Test("--out inside a subject's folder or the library's own folders is refused with status 64, writing nothing")
    func outInsideTheLibraryIsRefused() throws {
        for out in ["Library/pets/leo/site", "Library/children", "Library/.dossier/report", "Library"] {
            let result = try report(["--out", out])
            #expect(result.status == 64, "\(out): \(result.standardError)")
            #expect(result.standardError.contains("--out"), "\(result.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/pets/leo/site")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/report")))
    }

    @Test("--out elsewhere writes the site there, linking to the library's photos, and nothing into the library")
    func outElsewhere() throws {
        let result = try report(["--out", "site"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/report")))
        let leo = try String(contentsOfFile: folder.path("site/pets/leo/index.html"), encoding: .utf8)
        #expect(leo.contains("<a href=\"../../../Library/pets/leo/photos/"))
        #expect(leo.contains("<img src=\"../../../Library/.dossier/thumbs/"))
    }

    @Test("A report folder that is a link out of the library is refused, naming it, and nothing is written through it")
    func reportLinkIsRefused() throws {
        try FileManager.default.createDirectory(atPath: folder.path("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("Library/report"), withDestinationPath: folder.path("elsewhere"))
        let result = try report()
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("Library/report"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("elsewhere")).isEmpty)
    }

    @Test("A subject's folder in a site elsewhere (--out) that is a link is refused as the site's, not the library's, and nothing is written through it")
    func linkInSiteElsewhereIsRefused() throws {
        #expect(try report(["--out", "site"]).status == 0)
        try FileManager.default.createDirectory(atPath: folder.path("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: folder.path("site/pets/leo"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("site/pets/leo"), withDestinationPath: folder.path("elsewhere"))
        try folder.write("2024.05.01 레오 체중 55g\n", to: "more/pets/leo/may.txt")
        #expect(try DossierBinary.run(["import", "more", "--library", "Library"], in: folder.url).status == 0)
        let result = try report(["--out", "site"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("site/pets/leo is a symbolic link inside the report's site "), "\(result.standardError)")
        #expect(!result.standardError.contains("inside the library"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("elsewhere")).isEmpty)
    }

    @Test("dossier watch --report refreshes the site after each batch: a weight dropped in the inbox is on the page")
    func watchRefreshesTheReport() async throws {
        try FileManager.default.createDirectory(atPath: folder.path("inbox"), withIntermediateDirectories: true)
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--report"])
        try folder.write("2024.06.01 레오 체중 57g\n", to: "inbox/pets/leo/june.txt")
        #expect(await daemon.wait { daemon.events("filed").count == 1 && !daemon.events("report").isEmpty }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        let report = try #require(daemon.events("report").first)
        #expect(report["destination"] == folder.url.resolvingSymlinksInPath().path + "/Library/report/index.html")
        #expect(ReportCommandTests.circles(in: try page("pets/leo/index.html"), series: "weight")?.last == "2024-06-01 57 g")
    }

    @Test("A report written into a watched inbox is never taken for sources; import passes a report's site over, said; watch refuses a site as its inbox")
    func reportSitesAreNeverSources() async throws {
        try FileManager.default.createDirectory(atPath: folder.path("inbox"), withIntermediateDirectories: true)
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        let written = try report(["--out", "inbox/site"])
        #expect(written.status == 0, "\(written.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.path("inbox/site/.dossier-report")))
        // A photo dropped beside the site is filed; none of the site's pages is touched.
        try folder.write(ReportCommandTests.jpeg(seed: 9), to: "inbox/pets/leo/IMG_0009.JPG")
        #expect(await daemon.wait { daemon.events("filed").count == 1 }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        #expect(daemon.events("quarantined").isEmpty && daemon.events("filed").count == 1, "\(daemon.text)")
        #expect(FileManager.default.fileExists(atPath: folder.path("inbox/site/pets/leo/index.html")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/quarantine")))

        let imported = try DossierBinary.run(["import", "inbox", "--library", "Library", "--json"], in: folder.url)
        let passed = try #require(imported.outcomes.first { ($0["source"] as? String)?.hasSuffix("/inbox/site") == true }, "\(imported.standardOutput)")
        #expect(passed["status"] as? String == "skipped")
        #expect(passed["errorCode"] as? String == "report-site")
        #expect(!imported.outcomes.contains { ($0["source"] as? String)?.contains("/inbox/site/") == true })

        let refused = try DossierBinary.run(["watch", "inbox/site", "--library", "Library"], in: folder.url)
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("is a Dossier report's site"), "\(refused.standardError)")
    }

    /// A small JPEG whose pixels `seed` changes, Orientation 1.
    static func jpeg(seed: Int) -> [UInt8] {
        let (width, height) = (32, 24)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for position in 0..<(width * height) {
            pixels[position * 3] = UInt8((position % width * 7 + seed * 41) & 0xFF)
            pixels[position * 3 + 1] = UInt8((position / width * 9 + seed * 13) & 0xFF)
            pixels[position * 3 + 2] = UInt8((seed * 59) & 0xFF)
        }
        var output = dossier_buffer()
        var status = dossier_status()
        let result = pixels.withUnsafeBufferPointer { rgb in
            dossier_jpeg_encode_rgb(rgb.baseAddress, Int32(width), Int32(height), 90, 2, 2, nil, 0, nil, 0, &output, &status)
        }
        precondition(result == 0, "the test JPEG could not be encoded")
        defer { dossier_buffer_free(&output) }
        return Array(UnsafeBufferPointer(start: output.data, count: output.size))
    }
}
