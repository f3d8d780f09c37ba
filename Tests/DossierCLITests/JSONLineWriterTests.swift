@testable import DossierCore
import Foundation
import Testing
@testable import DossierCLI

/// `--json` lines are written straight (`JSONLineWriter`), not through JSONSerialization: they
/// must read the same, byte for byte, as the lines JSONSerialization wrote before.
@Suite("A source's JSON line is written as JSONSerialization writes it")
struct JSONLineWriterTests {
    /// The string as JSONSerialization writes it (inside an array, which is then taken off).
    static func serialized(_ value: String) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys, .withoutEscapingSlashes])
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    static func written(_ value: String) -> String {
        var text = ""
        JSONLineWriter.quote(value, into: &text)
        return text
    }

    @Test("Every character of the first 256, and some beyond (line separators, a BOM, an emoji, a combining accent), is escaped alike")
    func everyCharacterEscapedAlike() throws {
        let beyond: [UInt32] = [0x2028, 0x2029, 0xFEFF, 0x1F600, 0x301, 0xFFFD]
        for value in Array(0...0xFF) + beyond {
            let text = "a" + String(Character(Unicode.Scalar(value)!)) + "b/\\\"c"
            #expect(JSONLineWriterTests.written(text) == (try JSONLineWriterTests.serialized(text)), "U+\(String(value, radix: 16))")
        }
        #expect(JSONLineWriterTests.written("") == (try JSONLineWriterTests.serialized("")))
        let mixed = "e\u{301} \u{0}\u{1F}\u{7F} 한글"
        #expect(JSONLineWriterTests.written(mixed) == (try JSONLineWriterTests.serialized(mixed)))
    }

    @Test("A source's line, with none, some or all of its fields set, is the line JSONSerialization writes")
    func outcomeLinesAlike() throws {
        let leo = try Subject(parsing: "pets/leo")
        let mia = try Subject(parsing: "pets/mia")
        var all = SourceOutcome(source: "/d/\"odd\"\\name\n.gif", status: .imported, stage: .file, subject: leo, subjects: [leo, mia],
                                destination: "/L/pets/leo/photos/2024/x.gif", error: "tab\there", warnings: ["one", "two/\u{1}"],
                                problems: ["line 3: no date"], recordsAdded: 3, recordsDuplicate: 1, sourceRemoved: true)
        all.alsoFiled = ["/L/a.mov", "/L/b.dng"]
        all.rendition = "/L/pets/leo/photos/2024/x.jpg"
        all.taken = "2024-01-02T03:04:05+09:00"
        all.dateFrom = "exif"
        all.format = "gif"
        all.rotation = 90
        all.motion = true
        all.damaged = true
        all.refiled = true
        all.original = "/L/originals/x.gif"
        all.errorCode = "E_TEST"
        all.cause = .errno(ENOSPC)
        all.reading = "UTF-8"
        all.recordsRemoved = 2
        var removedOnly = SourceOutcome(source: "/d/log.txt", status: .duplicate)
        removedOnly.recordsRemoved = 4
        let outcomes = [
            SourceOutcome(source: "/d/a.jpg", status: .imported, subject: leo, destination: "/L/pets/leo/photos/x.jpg"),
            SourceOutcome(source: "/d/b.jpg", status: .failed, error: "/d/b.jpg: cut short"),
            SourceOutcome(source: "", status: .skipped, stage: .read),
            removedOnly,
            all,
        ]
        for outcome in outcomes {
            #expect(JSONLinesReporter.line(for: outcome) == JSONLinesReporter.serializedLine(for: outcome))
        }
    }
}
