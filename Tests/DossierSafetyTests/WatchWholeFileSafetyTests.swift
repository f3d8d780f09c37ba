import DossierTestSupport
import Foundation
import Glibc
import Testing

/// The daemon files a photo only when its bytes read whole: a file its format's structure says
/// is cut short (a JPEG before its end marker, a movie's box past the end of the file) may still
/// be being written, so it waits in the inbox, neither filed nor quarantined, until it is whole,
/// or until it has not changed for ten times `--settle`: then it is filed as it is, and its log
/// line says it is damaged, at warning level.
@Suite("The watch daemon files only whole files", .serialized)
struct WatchWholeFileSafetyTests {
    /// Appends `bytes` to `path`, opening and closing it, as a program that writes a file in
    /// separate chunks does.
    static func append(_ bytes: ArraySlice<UInt8>, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno)!) }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        #expect(written == bytes.count)
    }

    /// A log line's time.
    static func time(_ line: [String: Any]) throws -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return try #require((line["time"] as? String).flatMap(formatter.date(from:)), "\(line)")
    }

    @Test("A photo or movie written into the inbox in four closed chunks, each of which settles, is filed once and whole; the inbox is emptied and nothing is quarantined",
          arguments: ["jpg", "mov"])
    func writtenInChunks(_ kind: String) async throws {
        let folder = try WatchSafetyTests.prepare()
        // A settle of a second: the chunk after each is written once the daemon has found the
        // one before cut short, well within the ten seconds a busy machine could otherwise pass.
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--settle", "1"])
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        let whole = kind == "jpg" ? SafetyFixtures.jpeg(width: 512, height: 384, orientation: 1, seed: 11) : TestMovie().bytes
        try FileManager.default.createDirectory(atPath: folder.path("inbox/pets/rex"), withIntermediateDirectories: true)
        let path = folder.path("inbox/pets/rex/IMG_0001.\(kind)")
        let quarter = (whole.count + 3) / 4
        for part in 0..<4 {
            try WatchWholeFileSafetyTests.append(whole[(part * quarter)..<min(whole.count, (part + 1) * quarter)], to: path)
            guard part < 3 else { break }
            // The part settles and is looked at: it reads cut short, and waits in the inbox for the rest.
            #expect(await daemon.wait {
                daemon.events("incomplete").count == part + 1 || !daemon.events("filed").isEmpty || !daemon.events("quarantined").isEmpty
            }, "\(daemon.text)")
            #expect(daemon.events("filed").isEmpty, "\(daemon.text)")
            #expect(daemon.events("quarantined").isEmpty, "\(daemon.text)")
        }
        #expect(await daemon.wait { !daemon.events("filed").isEmpty && WatchSafetyTests.inboxFiles(folder).isEmpty }, "\(daemon.text)")
        let filed = try #require(daemon.objects.first { $0["event"] as? String == "filed" })
        #expect(filed["level"] as? String == "info")
        #expect(filed["damaged"] == nil)
        #expect(SafetyFixtures.contents(try #require(filed["destination"] as? String)) == whole)
        #expect(daemon.events("filed").count == 1)
        #expect(daemon.events("incomplete").count == 3)
        #expect(daemon.events("quarantined").isEmpty)
        #expect(folder.files(under: "Library/quarantine").isEmpty)
        #expect(await daemon.stop().status == 0)
    }

    @Test("A JPEG cut short and left in the inbox is filed only once it has not changed for ten times --settle: as it is, its log line at warning level and marked damaged")
    func cutShortAndLeft() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--settle", "0.3"])
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        let whole = SafetyFixtures.jpeg(width: 512, height: 384, orientation: 1, seed: 12)
        let cut = Array(whole.prefix(whole.count * 2 / 3))
        try WatchSafetyTests.drop(cut, as: "pets/rex/IMG_cut.jpg", in: folder)
        #expect(await daemon.wait { !daemon.events("filed").isEmpty || !daemon.events("quarantined").isEmpty }, "\(daemon.text)")
        let lines = daemon.objects
        let waited = try #require(lines.first { $0["event"] as? String == "incomplete" }, "\(daemon.text)")
        #expect((waited["reason"] as? String)?.hasPrefix("cut short: it ends before its end marker (FF D9)") == true, "\(waited)")
        #expect(waited["level"] as? String == "info")
        let filed = try #require(lines.first { $0["event"] as? String == "filed" }, "\(daemon.text)")
        #expect(filed["level"] as? String == "warning")
        #expect(filed["damaged"] as? Bool == true)
        #expect((filed["reason"] as? String)?.hasPrefix("damaged (Premature end of JPEG file)") == true, "\(filed)")
        // Not before it had been unchanged for ten times --settle (3 s) since it was found cut short.
        #expect(try WatchWholeFileSafetyTests.time(filed).timeIntervalSince(WatchWholeFileSafetyTests.time(waited)) >= 3)
        #expect(daemon.events("incomplete").count == 1)
        #expect(SafetyFixtures.contents(try #require(filed["destination"] as? String)) == cut)
        #expect(await daemon.wait { WatchSafetyTests.inboxFiles(folder).isEmpty })
        #expect(daemon.events("quarantined").isEmpty)
        #expect(await daemon.stop().status == 0)
    }
}
