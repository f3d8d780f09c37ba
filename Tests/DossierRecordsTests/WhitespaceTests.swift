import Testing
@testable import DossierRecords

@Suite("White space as Unicode defines it, without asking the property tables")
struct WhitespaceTests {
    @Test("Every scalar is white space exactly when Unicode's White_Space property says so")
    func agreesWithTheProperty() {
        var disagreements: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if scalar.isWhitespace != scalar.properties.isWhitespace { disagreements.append(value) }
        }
        #expect(disagreements == [])
    }

    @Test("Cells lose white space at both ends, ideographic and no-break spaces included, and keep it inside")
    func trimming() {
        #expect("\u{3000} 레오 체중\u{00A0}\t".trimmedWhitespace == "레오 체중")
        #expect(" \n ".trimmedWhitespace == "")
        #expect("45g".trimmedWhitespace == "45g")
    }

    @Test("Every white-space scalar is trimmed from either end of a cell's bytes, next to letters of one to four bytes")
    func trimmingBytes() {
        let spaces = (UInt32(0)...0x10FFFF).compactMap(Unicode.Scalar.init).filter(\.properties.isWhitespace)
        #expect(spaces.count == 25)
        for space in spaces {
            for letter in ["a", "é", "레", "🦎"] {
                let padded = "\(space)\(letter) \(letter)\(space)\(space)"
                var bytes = padded
                let trimmed = bytes.withUTF8 { String(decoding: $0.trimmedWhitespace, as: UTF8.self) }
                #expect(trimmed == "\(letter) \(letter)", "U+\(String(space.value, radix: 16))")
                #expect(padded.trimmedWhitespace == "\(letter) \(letter)")
            }
        }
        #expect("\u{3000}\u{00A0}".trimmedWhitespace == "")
        #expect("".trimmedWhitespace == "")
    }
}
