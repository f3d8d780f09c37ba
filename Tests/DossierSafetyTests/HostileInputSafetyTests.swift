import DossierTestSupport
import Foundation
import Glibc
import Testing

/// What a file or a command line can hold that no one meant: names that steer the terminal,
/// times past 2262 or in the year 10000, option values that overflow. Each is shown escaped,
/// dated openly or refused with a message; none crashes `import` or `watch`.
@Suite("Hostile names, times and option values", .serialized)
struct HostileInputSafetyTests {
    /// A name that retitles a terminal (`ESC ] 0 ; ... BEL`), and one that splits a listing's line.
    static let escapeName = "esc\u{1B}]0;pwned\u{07}.jpg"
    static let newlineName = "two\nlines.jpg"
    /// The same names as every output shows them.
    static let escapeShown = #"esc\u001B]0;pwned\u0007.jpg"#
    static let newlineShown = #"two\nlines.jpg"#
    /// 2300-01-01T00:00:00Z: past 2262, where seconds times 10^9 no longer fits an Int64.
    static let year2300: time_t = 10_413_792_000

    static var thisYear: Int { Calendar(identifier: .gregorian).component(.year, from: Date()) }

    /// A library with pets/rex, and an inbox beside it.
    static func prepare(environment: [String: String] = [:]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("inbox"), withIntermediateDirectories: true)
        let added = try DossierBinary.run(["subjects", "add", "pets/rex", "--name", "Rex", "--library", "Library"], in: folder.url,
                                          environment: environment)
        #expect(added.status == 0, "\(added.standardError)")
        return folder
    }

    /// Sets a file's access and modification times, as `touch -d` does.
    static func setTimes(of path: String, to seconds: time_t) throws {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
    }

    /// Writes a file outside the inbox (with `modified` as its mtime, when given), then moves it
    /// in, as a sync tool finishing a download does; a rename keeps the mtime.
    static func drop(_ bytes: [UInt8], as relative: String, in folder: TemporaryFolder, modified: time_t? = nil) throws {
        let staged = try folder.write(bytes, to: "outside/\(UUID().uuidString)")
        if let modified { try setTimes(of: staged, to: modified) }
        let target = folder.path("inbox/\(relative)")
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        #expect(rename(staged, target) == 0)
    }

    /// The control characters in a text other than the line feeds its lines end in: C0, DEL, C1
    /// and the bidirectional controls, each as its code point.
    static func rawControls(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter {
            ($0 < 0x20 && $0 != 0x0A) || (0x7F...0x9F).contains($0) || (0x2028...0x202E).contains($0) || (0x2066...0x2069).contains($0)
        }
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    // MARK: Names

    @Test("Photos named with ESC and BEL and with a line feed are imported; --verbose shows each on its one line, escaped")
    func importShowsNamesEscaped() throws {
        let folder = try HostileInputSafetyTests.prepare()
        try folder.write(SafetyFixtures.jpeg(seed: 1), to: "dump/pets/rex/\(HostileInputSafetyTests.escapeName)")
        try folder.write(SafetyFixtures.jpeg(seed: 2), to: "dump/pets/rex/\(HostileInputSafetyTests.newlineName)")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--verbose"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(HostileInputSafetyTests.rawControls(imported.standardOutput).isEmpty, "\(imported.standardOutput.debugDescription)")
        #expect(HostileInputSafetyTests.rawControls(imported.standardError).isEmpty, "\(imported.standardError.debugDescription)")
        let lines = HostileInputSafetyTests.lines(imported.standardOutput)
        #expect(lines.count == 3, "\(lines)")
        let filed = lines.filter { $0.hasPrefix("imported ") }.sorted()
        #expect(filed.count == 2)
        #expect(filed.first?.hasPrefix("imported \(folder.path("dump/pets/rex"))/\(HostileInputSafetyTests.escapeShown) -> ") == true)
        #expect(filed.last?.hasPrefix("imported \(folder.path("dump/pets/rex"))/\(HostileInputSafetyTests.newlineShown) -> ") == true)
        #expect(lines.last?.hasPrefix("2 sources: 2 imported,") == true)
    }

    @Test("The daemon quarantines damaged photos with such names; its text log and `quarantine list` show them escaped, each entry on its own lines")
    func quarantineListShowsNamesEscaped() async throws {
        let folder = try HostileInputSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--log-format", "text"])
        #expect(await daemon.wait { daemon.text.contains(" info watching ") }, "\(daemon.text)")
        let photo = SafetyFixtures.jpeg(seed: 3)
        for name in [HostileInputSafetyTests.escapeName, HostileInputSafetyTests.newlineName] {
            try HostileInputSafetyTests.drop(SafetyFixtures.headerCut(photo), as: "pets/rex/\(name)", in: folder)
        }
        #expect(await daemon.wait { daemon.text.components(separatedBy: " warning quarantined ").count == 3 }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)

        // The log: no raw control, every line a line of its own (each starts with its time).
        let log = daemon.text
        #expect(HostileInputSafetyTests.rawControls(log).isEmpty, "\(log.debugDescription)")
        #expect(HostileInputSafetyTests.lines(log).allSatisfy { $0.hasPrefix("\(HostileInputSafetyTests.thisYear)-") }, "\(log)")
        #expect(log.contains("source=\(folder.path("inbox/pets/rex"))/\(HostileInputSafetyTests.escapeShown)\n"))
        #expect(log.contains("source=\(folder.path("inbox/pets/rex"))/\(HostileInputSafetyTests.newlineShown)\n"))

        // The quarantined files are named as they are shown: no control character in a file name.
        let quarantined = folder.files(under: "Library/quarantine").filter { !$0.hasSuffix(".error.json") }
        #expect(quarantined.map { ($0 as NSString).lastPathComponent }.sorted()
            == [HostileInputSafetyTests.escapeShown, HostileInputSafetyTests.newlineShown])

        let listed = try DossierBinary.run(["quarantine", "list", "--library", "Library"], in: folder.url)
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(HostileInputSafetyTests.rawControls(listed.standardOutput).isEmpty, "\(listed.standardOutput.debugDescription)")
        let lines = HostileInputSafetyTests.lines(listed.standardOutput)
        // Two entries of three lines each, then the count.
        #expect(lines.count == 7, "\(lines)")
        guard lines.count == 7 else { return }
        let ids = [lines[0], lines[3]].sorted()
        #expect(ids.map { ($0 as NSString).lastPathComponent } == [HostileInputSafetyTests.escapeShown, HostileInputSafetyTests.newlineShown])
        for entry in [lines[0...2], lines[3...5]] {
            let (id, from, reason) = (entry[entry.startIndex], entry[entry.startIndex + 1], entry[entry.startIndex + 2])
            #expect(!id.hasPrefix(" "))
            #expect(from.hasPrefix("    from \(folder.path("inbox/pets/rex"))/\((id as NSString).lastPathComponent) ("))
            #expect(reason.hasPrefix("    read: "))
        }
        #expect(lines[6] == "2 in quarantine; `dossier quarantine retry ID|--all` once the cause is fixed.")

        // An id as the list shows it is the id to give back.
        let removed = try DossierBinary.run(["quarantine", "remove", ids[1], "--yes", "--library", "Library"], in: folder.url)
        #expect(removed.status == 0, "\(removed.standardError)")
        #expect(removed.standardOutput == "Removed \(ids[1]) (from \(folder.path("inbox/pets/rex"))/\(HostileInputSafetyTests.newlineShown)).\n")
    }

    // MARK: Times

    @Test("A photo, a movie and a log last changed in 2300 are imported: the photo and movie dated by the import, the log's undated line by its year, each saying so")
    func importFilesWhatWasChangedIn2300() throws {
        let folder = try HostileInputSafetyTests.prepare()
        let photo = try folder.write(SafetyFixtures.jpeg(seed: 4), to: "dump/pets/rex/future.jpg")
        // Not named like the photo: that would make it the photo's Live Photo movie.
        let movie = try folder.write(TestMovie().bytes, to: "dump/pets/rex/clip.mov")
        let log = try folder.write("3/5 Rex weight 400 g\n", to: "dump/pets/rex/notes.txt")
        for path in [photo, movie, log] { try HostileInputSafetyTests.setTimes(of: path, to: HostileInputSafetyTests.year2300) }

        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 3, "\(imported.standardError)")
        let outcomes = Dictionary(uniqueKeysWithValues: imported.outcomes.map { (($0["source"] as? String) ?? "", $0) })
        #expect(outcomes.count == 3)
        for (path, folderName) in [(photo, "photos"), (movie, "videos")] {
            let outcome = try #require(outcomes[path], "\(imported.standardOutput)")
            #expect(outcome["status"] as? String == "imported")
            let taken = try #require(outcome["taken"] as? String)
            #expect(taken.hasPrefix("\(HostileInputSafetyTests.thisYear)-"))
            #expect((outcome["destination"] as? String)?.contains("/pets/rex/\(folderName)/\(HostileInputSafetyTests.thisYear)/") == true)
            #expect(outcome["warnings"] as? [String] == [
                // A photo's plausible years: 1826 to next year.
                "the date it was taken is unknown (its file's modification time is outside the years 1826 to "
                    + "\(HostileInputSafetyTests.thisYear + 1)): "
                    + "dated by the time it was imported, \(taken)",
            ])
        }
        let notes = try #require(outcomes[log])
        #expect(notes["status"] as? String == "imported")
        #expect(notes["problems"] as? [String] == [
            "\(log): line 1: no year before '3/5'; took \(HostileInputSafetyTests.thisYear), the year it was imported "
                + "(the date the file was last changed is unknown: outside the years 1900 to 2199)",
        ])
        let records = try String(contentsOfFile: folder.path("Library/pets/rex/records/\(HostileInputSafetyTests.thisYear).jsonl"),
                                 encoding: .utf8)
        #expect(records.contains("\"date\":\"\(HostileInputSafetyTests.thisYear)-03-05\""))
    }

    @Test("The daemon starts with a photo last changed in 2300 in its inbox, files it and a log changed then too, and stops cleanly")
    func watchFilesWhatWasChangedIn2300() async throws {
        let folder = try HostileInputSafetyTests.prepare()
        // Already there at the start: the first scan stamps it.
        try HostileInputSafetyTests.drop(SafetyFixtures.jpeg(seed: 5), as: "pets/rex/future.jpg", in: folder,
                                         modified: HostileInputSafetyTests.year2300)
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty }, "\(daemon.text)")
        try HostileInputSafetyTests.drop(Array("2024-03-05 Rex weight 400 g\n".utf8), as: "pets/rex/notes.txt", in: folder,
                                         modified: HostileInputSafetyTests.year2300)
        #expect(await daemon.wait { daemon.events("filed").count == 2 }, "\(daemon.text)")
        #expect(await daemon.wait { folder.files(under: "inbox").filter { $0 != ".dossier-watch.lock" }.isEmpty })
        #expect(await daemon.stop().status == 0)
        let photo = daemon.events("filed").first { $0["source"]?.hasSuffix("/future.jpg") == true }
        #expect(photo?["destination"]?.contains("/Library/pets/rex/photos/\(HostileInputSafetyTests.thisYear)/") == true)
        #expect(folder.files(under: "Library/pets/rex/records") == ["2024.jsonl"])
    }

    /// The sample drawing, its tIME chunk set to `time` (UTC: year, month, day, hour, minute, second).
    static func png(time: (year: UInt16, month: UInt8, day: UInt8, hour: UInt8, minute: UInt8, second: UInt8)) throws -> [UInt8] {
        var bytes = Array(try Data(contentsOf: DossierBinary.packageRoot.appendingPathComponent("Samples/children/mina/drawing.png")))
        let type = Array("tIME".utf8)
        let start = try #require((8..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual(type) })
        let data: [UInt8] = [UInt8(time.year >> 8), UInt8(time.year & 0xFF), time.month, time.day, time.hour, time.minute, time.second]
        bytes.replaceSubrange(start + 4..<start + 11, with: data)
        let crc = HostileInputSafetyTests.crc32(type + data)
        bytes.replaceSubrange(start + 11..<start + 15, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        return bytes
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test("A PNG whose tIME is 9999-12-31 23:00 UTC in a Seoul library, and a movie whose header time is 2^62 seconds on, are dated by their files' times, saying why")
    func timesBeyondTheCalendar() throws {
        let folder = try HostileInputSafetyTests.prepare(environment: ["TZ": "Asia/Seoul"])
        try folder.write(try HostileInputSafetyTests.png(time: (9999, 12, 31, 23, 0, 0)), to: "dump/pets/rex/drawing.png")
        var movie = TestMovie()
        movie.version1 = true
        movie.movieHeaderCreation = 1 << 62
        try folder.write(movie.bytes, to: "dump/pets/rex/clip.mp4")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        let outcomes = imported.outcomes.sorted { ($0["source"] as? String ?? "") < ($1["source"] as? String ?? "") }
        #expect(outcomes.map { $0["status"] as? String } == ["imported", "imported"], "\(imported.standardOutput)")
        #expect(outcomes.map { $0["warnings"] as? [String] } == [
            ["its movie header's creation time is outside the years 1826 to \(HostileInputSafetyTests.thisYear + 1): "
                + "dated by its file's modification time"],
            ["its PNG tIME is outside the years 1826 to \(HostileInputSafetyTests.thisYear + 1): dated by its file's modification time"],
        ])
        #expect(outcomes.allSatisfy { ($0["taken"] as? String)?.hasPrefix("\(HostileInputSafetyTests.thisYear)-") == true })
    }

    // MARK: Option values

    @Test("An option value out of its range is refused with exit 64, naming the option and its range", arguments: [
        (["watch", "inbox", "--settle", "1e10"], "--settle must be 0 to 86,400 seconds, not 10,000,000,000."),
        (["watch", "inbox", "--settle", "-1"], "--settle must be 0 to 86,400 seconds, not -1."),
        (["watch", "inbox", "--settle", "nan"], "--settle must be 0 to 86,400 seconds, not nan."),
        (["watch", "inbox", "--poll", "1e10"], "--poll must be 0.1 to 86,400 seconds, not 10,000,000,000."),
        (["watch", "inbox", "--poll", "0"], "--poll must be 0.1 to 86,400 seconds, not 0."),
        (["watch", "inbox", "--rescan", "1e9"], "--rescan must be 0.01 to 10,080 minutes, not 1,000,000,000."),
        (["watch", "inbox", "--rescan", "-5"], "--rescan must be 0.01 to 10,080 minutes, not -5."),
        (["watch", "inbox", "--shutdown-timeout", "1e10"], "--shutdown-timeout must be 0.01 to 3,600 seconds, not 10,000,000,000."),
        (["watch", "inbox", "--shutdown-timeout", "inf"], "--shutdown-timeout must be 0.01 to 3,600 seconds, not inf."),
        (["watch", "inbox", "--jobs", "0"], "--jobs must be 1 to 256, not 0."),
        (["watch", "inbox", "--jobs", "-4"], "--jobs must be 1 to 256, not -4."),
        (["import", "--create", "dump", "--jobs", "100000"], "--jobs must be 1 to 256, not 100000."),
        (["today", "--date", "1899-12-31"], "--date: 1899-12-31 is outside the years 1900 to 2199."),
        (["records", "pets/rex", "--since", "0001-01-01"], "--since: 0001-01-01 is outside the years 1900 to 2199."),
        (["records", "pets/rex", "--until", "2200-01-01"], "--until: 2200-01-01 is outside the years 1900 to 2199."),
        (["subjects", "add", "pets/old", "--name", "Old", "--born", "9999-12-31"], "--born: 9999-12-31 is outside the years 1900 to 2199."),
    ])
    func optionOutOfRange(_ arguments: [String], _ message: String) throws {
        let folder = try TemporaryFolder()
        // An inbox that is there: a value let through would reach the daemon's start.
        try FileManager.default.createDirectory(atPath: folder.path("inbox"), withIntermediateDirectories: true)
        let result = try DossierBinary.run(arguments + ["--library", "Library"], in: folder.url)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("Error: \(message)\n"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library")))
    }

    @Test("Each number and date option's help states its range")
    func helpStatesRanges() throws {
        let folder = try TemporaryFolder()
        let help = { (command: [String]) throws -> String in
            try DossierBinary.run(command + ["--help"], in: folder.url).standardOutput
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        let watch = try help(["watch"])
        for range in ["taken (0 to 86,400)", "hosts' writes; 0.1 to 86,400)", "said (0.01 to 10,080, a week)",
                      "Ctrl-C (0.01 to 3,600)", "at once (1 to 256; default: the number of cores)"] {
            #expect(watch.contains(range), "\(range): \(watch)")
        }
        #expect(try help(["import"]).contains("at once (1 to 256; default: the number of cores)"))
        #expect(try help(["today"]).contains("(YYYY-MM-DD, 1900 to 2199)"))
        #expect(try help(["records"]).components(separatedBy: "3/2/2024 month first; 1900 to 2199)").count == 3)
        #expect(try help(["subjects", "add"]).contains("YYYY-MM-DDTHH:MM (1900 to 2199)"))
    }
}
