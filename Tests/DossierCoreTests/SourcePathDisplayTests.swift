import Foundation
import Testing
@testable import DossierCore

/// What a person sees of a name: nothing in it can steer the terminal, split a line or make it
/// read backwards.
@Suite("Names as they are shown")
struct SourcePathDisplayTests {
    @Test("A title-setting escape and a bell show as escapes, the rest of the name as it is")
    func terminalEscapes() {
        #expect(SourcePath.displayed("/inbox/esc\u{1B}]0;pwned\u{07}.jpg") == #"/inbox/esc\u001B]0;pwned\u0007.jpg"#)
    }

    @Test("Tab, line feed and carriage return show as \\t, \\n and \\r; every other control as \\u and four hex digits",
          arguments: [
              ("a\tb", #"a\tb"#), ("a\nb", #"a\nb"#), ("a\rb", #"a\rb"#), ("\u{00}", #"\u0000"#), ("\u{1F}", #"\u001F"#),
              ("\u{7F}", #"\u007F"#), ("\u{80}", #"\u0080"#), ("\u{9B}31m", #"\u009B31m"#), ("\u{9F}", #"\u009F"#),
          ])
    func controls(_ text: String, _ shown: String) {
        #expect(SourcePath.displayed(text) == shown)
    }

    @Test("Bidirectional overrides, embeddings and isolates, and the line and paragraph separators, show as escapes")
    func bidirectionalControls() {
        #expect(SourcePath.displayed("photo\u{202E}gpj.exe") == #"photo\u202Egpj.exe"#)
        let shown = (0x202A...0x202E).map { SourcePath.displayed(String(UnicodeScalar($0)!)) }
            + (0x2066...0x2069).map { SourcePath.displayed(String(UnicodeScalar($0)!)) }
        #expect(shown == [#"\u202A"#, #"\u202B"#, #"\u202C"#, #"\u202D"#, #"\u202E"#,
                          #"\u2066"#, #"\u2067"#, #"\u2068"#, #"\u2069"#])
        #expect(SourcePath.displayed("a\u{2028}b\u{2029}c") == #"a\u2028b\u2029c"#)
    }

    @Test("Names of letters in any script, marks and symbols stay as they are")
    func ordinaryNames() {
        for name in ["레오.jpg", "IMG_0001 (2).JPG", "Ünïcødé ☃ 🦎.png", "a\\b", "\u{200D}", "\u{00A0}x", "\u{2070}"] {
            #expect(SourcePath.displayed(name) == name)
        }
    }

    @Test("A byte that is not UTF-8 shows as U+FFFD next to an escaped control")
    func escapedBytesAndControls() {
        let path = SourcePath.string(fromFileSystem: [0x61, 0xFF, 0x1B, 0x62])
        #expect(SourcePath.displayed(path) == "a\u{FFFD}\\u001Bb")
    }

    @Test("Keeping newlines leaves the line feeds a text's own lines end in, and escapes the rest")
    func keepingNewlines() {
        #expect(SourcePath.displayed("one\u{1B}[2J\ntwo\r\n", keepingNewlines: true) == "one\\u001B[2J\ntwo\\r\n")
    }

    @Test("Shown twice reads as shown once")
    func idempotent() {
        let once = SourcePath.displayed("a\u{1B}\n\u{202E}\u{85}b")
        #expect(SourcePath.displayed(once) == once)
    }

    @Test("A JSON line passed through stays valid JSON and decodes to the same values")
    func jsonStaysJSON() throws {
        let name = "esc\u{1B}\u{7F}\u{85}\u{202E}\u{2028}\n.jpg"
        let line = String(decoding: try JSONSerialization.data(withJSONObject: ["source": name]), as: UTF8.self)
        let shown = SourcePath.displayed(line + "\n", keepingNewlines: true)
        #expect(!shown.unicodeScalars.dropLast().contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
        let decoded = try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: String]
        #expect(decoded == ["source": name])
    }
}
