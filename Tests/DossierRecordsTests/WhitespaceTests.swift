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
}
