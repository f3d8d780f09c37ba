/// Bounds the nesting of an OpenStep (ASCII) property list before Foundation parses it.
/// Foundation's parser recurses once per `(`, `{` or `<`; on Linux it gives up somewhere below
/// 1000 levels with "Expected terminating ')'", which sends the user looking for a typo. A clear
/// limit of our own does not depend on where that is. Everything else is left to Foundation.
enum OpenStepPropertyListChecker {
    struct Failure: Error {
        let line: Int
        let reason: String
    }

    static let maximumDepth = 512

    static func check(_ bytes: [UInt8]) throws(Failure) {
        var depth = 0, line = 1, index = 0
        var inString = false
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == 0x0A { line += 1 }
            if inString {
                if byte == UInt8(ascii: "\\") { index += 2; continue }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "/") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "/"):
                while index < count && bytes[index] != 0x0A { index += 1 }
                continue
            case UInt8(ascii: "/") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "*"):
                index += 2
                while index + 1 < count && !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
                    if bytes[index] == 0x0A { line += 1 }
                    index += 1
                }
                index += 2
                continue
            case UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "<"):
                depth += 1
                guard depth <= maximumDepth else { throw Failure(line: line, reason: "nested more than \(maximumDepth) deep") }
            case UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: ">"):
                depth = max(0, depth - 1)
            default:
                break
            }
            index += 1
        }
    }
}
