/// Finds the kind of an entry, and the foods it names, from a `KeywordTable`.
///
/// A kind word anywhere in the entry decides (the first one, reading left to right); failing
/// that, a food makes it a feeding ("귀뚜라미 5마리", "밀웜 5"). Korean words match with their
/// particles (귀뚜라미를); a one-syllable word (밥, 키, 약) only alone or with a particle.
public struct KeywordClassifier: Sendable {
    private let kindByWord: [String: String]
    private let foodByWord: [String: String]
    /// Keywords of several words ("water change"), looked for in the lowercased text.
    private let phrases: [(phrase: String, kind: String?, food: String?)]
    private let longestHangulWord: Int

    public init(table: KeywordTable) {
        var kinds: [String: String] = [:]
        var foods: [String: String] = [:]
        var phrases: [(String, String?, String?)] = []
        for entry in table.kinds {
            for word in entry.words.map({ $0.lowercased() }) {
                if word.contains(" ") { phrases.append((word, entry.kind, nil)) } else if kinds[word] == nil { kinds[word] = entry.kind }
            }
        }
        for entry in table.foods {
            for word in entry.words.map({ $0.lowercased() }) {
                if word.contains(" ") { phrases.append((word, nil, entry.food)) } else if foods[word] == nil { foods[word] = entry.food }
            }
        }
        kindByWord = kinds
        foodByWord = foods
        self.phrases = phrases
        longestHangulWord = (Array(kinds.keys) + Array(foods.keys)).map(\.count).max() ?? 1
    }

    public struct Classification: Equatable, Sendable {
        public let kind: String?
        /// Foods named, in order.
        public let foods: [String]
    }

    public func classify(_ text: String) -> Classification {
        classify(words: WordScanner.words(in: text), text: text)
    }

    func classify(words: [WordScanner.Word], text: String) -> Classification {
        var kind: String?
        var foods: [String] = []
        if !phrases.isEmpty {
            let lowered = text.lowercased()
            for entry in phrases where lowered.contains(entry.phrase) {
                if kind == nil, let phraseKind = entry.kind { kind = phraseKind }
                if let food = entry.food { foods.append(food) }
            }
        }
        for word in words {
            if kind == nil, let found = match(word, in: kindByWord) { kind = found }
            if let food = match(word, in: foodByWord) { foods.append(food) }
        }
        if kind == nil && !foods.isEmpty { kind = "feeding" }
        return Classification(kind: kind, foods: foods)
    }

    /// The food a single word names, if any ("pinkies" -> "pinky").
    func food(for word: WordScanner.Word) -> String? { match(word, in: foodByWord) }

    private func match(_ word: WordScanner.Word, in table: [String: String]) -> String? {
        if let exact = table[word.text] { return exact }
        guard word.isHangul else { return nil }
        let characters = Array(word.text)
        var length = min(characters.count - 1, longestHangulWord)
        while length >= 1 {
            let prefix = String(characters[0..<length])
            if let found = table[prefix] {
                let rest = String(characters[length...])
                if length >= 2 || WordScanner.particles.contains(rest) { return found }
            }
            length -= 1
        }
        return nil
    }
}
