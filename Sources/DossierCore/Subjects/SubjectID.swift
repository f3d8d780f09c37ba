/// A subject's id: the name of its folder, so it must never be able to leave the library.
///
/// 1 to 64 characters of lowercase ASCII letters, digits, `-` and `_`. That rules out `.`,
/// `..`, `/`, empty names and anything a file system could treat specially.
public struct SubjectID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public static let maximumLength = 64
    public static let rule = "1 to 64 characters of lowercase letters, digits, '-' and '_'"

    public let rawValue: String

    public init(_ rawValue: String) throws(SubjectError) {
        guard SubjectID.isValid(rawValue) else {
            throw SubjectError.invalidID(rawValue)
        }
        self.rawValue = rawValue
    }

    public static func isValid(_ candidate: String) -> Bool {
        let bytes = Array(candidate.utf8)
        guard (1...maximumLength).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    public var description: String { rawValue }

    public static func < (lhs: SubjectID, rhs: SubjectID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(String.self)
        try self.init(value)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
