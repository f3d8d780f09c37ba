import Foundation

/// A subject's sex, read from what people write (수컷, ♀, boy, F...).
public enum Sex: String, Codable, Sendable, CaseIterable {
    case male
    case female
    case unknown

    private static let words: [String: Sex] = [
        "m": .male, "male": .male, "boy": .male, "수컷": .male, "수": .male, "♂": .male, "남": .male, "남자": .male,
        "아들": .male, "1.0": .male,
        "f": .female, "female": .female, "girl": .female, "암컷": .female, "암": .female, "♀": .female, "여": .female,
        "여자": .female, "딸": .female, "0.1": .female,
        "u": .unknown, "unknown": .unknown, "unsexed": .unknown, "?": .unknown, "미구분": .unknown, "모름": .unknown,
        "0.0.1": .unknown,
    ]

    /// Nil for a word that says none of these.
    public init?(reading text: String) {
        guard let sex = Sex.words[text.trimmedWhitespace.lowercased()] else { return nil }
        self = sex
    }

    static let accepted = "male, female or unknown (also m/f, boy/girl, 수컷/암컷, ♂/♀, 1.0/0.1)"
}

