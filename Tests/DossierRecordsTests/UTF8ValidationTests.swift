import Testing
@testable import DossierRecords

@Suite("Checking UTF-8 in place, as the standard library would")
struct UTF8ValidationTests {
    /// The checker's verdict and the standard library's, for the same bytes.
    func verdicts(_ bytes: [UInt8]) -> (checked: Bool, standard: Bool) {
        let checked = bytes.withUnsafeBufferPointer { UTF8Validation.check($0).valid }
        return (checked, String(validating: bytes, as: UTF8.self) != nil)
    }

    @Test("Every one- and two-byte sequence, and every three-byte one, is judged as String(validating:) judges it")
    func agreesOnEveryShortSequence() {
        var disagreements: [[UInt8]] = []
        for first in 0...255 {
            let one = [UInt8(first)]
            let (checkedOne, standardOne) = verdicts(one)
            if checkedOne != standardOne { disagreements.append(one) }
            for second in 0...255 {
                let two = [UInt8(first), UInt8(second)]
                let (checked, standard) = verdicts(two)
                if checked != standard { disagreements.append(two) }
            }
        }
        for lead in 0xE0...0xEF {
            for second in 0...255 {
                for third in [0x00, 0x41, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF] {
                    let three = [UInt8(lead), UInt8(second), UInt8(third)]
                    let (checked, standard) = verdicts(three)
                    if checked != standard { disagreements.append(three) }
                }
            }
        }
        #expect(disagreements == [])
    }

    @Test("Four-byte sequences: nothing past U+10FFFF, no overlong forms, no cut-off ends")
    func agreesOnFourByteSequences() {
        var disagreements: [[UInt8]] = []
        for lead in 0xF0...0xF7 {
            for second in 0...255 {
                for tail in [[0x80, 0x80], [0xBF, 0xBF], [0x80, 0x41], [0xC0, 0x80], [0x80]] {
                    let bytes = [UInt8(lead), UInt8(second)] + tail.map(UInt8.init)
                    let (checked, standard) = verdicts(bytes)
                    if checked != standard { disagreements.append(bytes) }
                }
            }
        }
        #expect(disagreements == [])
    }

    @Test("Long lines are judged alike wherever the bad or multi-byte sequence falls, and ASCII is told apart")
    func agreesOnLongLines() {
        let inserts: [[UInt8]] = [[], Array("레오".utf8), [0xC3], [0xED, 0xA0, 0x80], Array("🦎".utf8), [0xF4, 0x90, 0x80, 0x80], [0x80]]
        for length in 0...20 {
            for insert in inserts {
                for position in 0...length {
                    var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                    bytes.insert(contentsOf: insert, at: position)
                    let check = bytes.withUnsafeBufferPointer { UTF8Validation.check($0) }
                    #expect(check.valid == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
                    #expect(check.ascii == (check.valid && insert.isEmpty), "\(bytes)")
                }
            }
        }
    }
}
