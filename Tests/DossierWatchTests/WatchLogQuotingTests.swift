import Foundation
import Logging
import Synchronization
import Testing
@testable import DossierWatch

/// A text log line splits into `key=value` fields and stays one line, whatever a value holds.
@Suite("The text log's values")
struct WatchLogQuotingTests {
    @Test("A plain value is written as it is")
    func plainValues() {
        #expect(WatchLogHandler.quoted("/inbox/pets/leo/IMG_1.jpg") == "/inbox/pets/leo/IMG_1.jpg")
        #expect(WatchLogHandler.quoted("레오") == "레오")
    }

    @Test("Spaces, quotes, = and empty values are quoted, a quote and a backslash inside escaped")
    func quotedValues() {
        #expect(WatchLogHandler.quoted("two words") == #""two words""#)
        #expect(WatchLogHandler.quoted(#"say "hi"\now"#) == #""say \"hi\"\\now""#)
        #expect(WatchLogHandler.quoted("a=b") == #""a=b""#)
        #expect(WatchLogHandler.quoted("") == #""""#)
    }

    @Test("Every control character is quoted and escaped: C0, DEL, C1 and the bidirectional controls", arguments: [
        ("esc\u{1B}]0;pwned\u{07}.jpg", #""esc\u001B]0;pwned\u0007.jpg""#),
        ("two\nlines", #""two\nlines""#),
        ("tab\there\rback", #""tab\there\rback""#),
        ("del\u{7F}", #""del\u007F""#),
        ("csi\u{9B}2J", #""csi\u009B2J""#),
        ("photo\u{202E}gpj.exe", #""photo\u202Egpj.exe""#),
        ("isolate\u{2066}x\u{2069}", #""isolate\u2066x\u2069""#),
    ])
    func controls(_ value: String, _ written: String) {
        #expect(WatchLogHandler.quoted(value) == written)
    }

    @Test("A source's problems are written out, not counted: joined in text, an array in JSON")
    func problemsAreListed() throws {
        let lines = Mutex<[String]>([])
        for format in [WatchLogHandler.Format.text, .json] {
            let logger = Logger(label: "test") { _ in WatchLogHandler(format: format, write: { line in lines.withLock { $0.append(line) } }) }
            logger.info("filed", metadata: ["source": "/inbox/pets/rex/notes.txt", "problems": .array([
                "/inbox/pets/rex/notes.txt:3: no date", "/inbox/pets/rex/notes.txt:7: 2024-02-30 is no day",
            ])])
        }
        let (text, json) = lines.withLock { ($0[0], $0[1]) }
        #expect(text.hasSuffix(#" info filed problems="/inbox/pets/rex/notes.txt:3: no date; /inbox/pets/rex/notes.txt:7: 2024-02-30 is no day" source=/inbox/pets/rex/notes.txt"# + "\n"), "\(text)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["problems"] as? [String] == ["/inbox/pets/rex/notes.txt:3: no date", "/inbox/pets/rex/notes.txt:7: 2024-02-30 is no day"])
    }

    @Test("A backslash written before a control's escape stays told apart from it")
    func backslashBeforeAControl() {
        #expect(WatchLogHandler.quoted("a\\\u{1B}") == #""a\\\u001B""#)
    }
}
