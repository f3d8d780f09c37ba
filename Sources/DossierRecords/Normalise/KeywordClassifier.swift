/// Finds the kind of an entry, and the foods it names, from a `KeywordTable`.
///
/// A kind word anywhere in the entry decides (the first one, reading left to right); failing
/// that, a food makes it a feeding ("귀뚜라미 5마리", "밀웜 5"). Korean words match with their
/// particles (귀뚜라미를); a one-syllable word (밥, 키, 약) only alone or with a particle.
public struct KeywordClassifier: Sendable {
    private let kindByWord: [String: String]
    private let foodByWord: [String: String]
    /// Keywords of several words ("water change"), matched against consecutive words.
    private let phrases: [(words: [String], kind: String?, food: String?)]
    private let longestHangulWord: Int

    public init(table: KeywordTable) {
        var kinds: [String: String] = [:]
        var foods: [String: String] = [:]
        var phrases: [([String], String?, String?)] = []
        for entry in table.kinds {
            for word in entry.words.map({ $0.lowercased() }) {
                if word.contains(" ") {
                    phrases.append((word.split(separator: " ").map(String.init), entry.kind, nil))
                } else if kinds[word] == nil {
                    kinds[word] = entry.kind
                }
            }
        }
        for entry in table.foods {
            for word in entry.words.map({ $0.lowercased() }) {
                if word.contains(" ") {
                    phrases.append((word.split(separator: " ").map(String.init), nil, entry.food))
                } else if foods[word] == nil {
                    foods[word] = entry.food
                }
            }
        }
        kindByWord = kinds
        foodByWord = foods
        self.phrases = phrases
        longestHangulWord = (Array(kinds.keys) + Array(foods.keys)).map(\.unicodeScalars.count).max() ?? 1
    }

    public struct Classification: Equatable, Sendable {
        public let kind: String?
        /// Foods named, in order.
        public let foods: [String]
    }

    public func classify(_ text: String) -> Classification {
        var memo = WordMemo()
        return classify(words: WordScanner.words(in: text), memo: &memo)
    }

    func classify(words: [WordScanner.Word], memo: inout WordMemo) -> Classification {
        var kind: String?
        var foods: [String] = []
        for entry in phrases where words.count >= entry.words.count {
            let found = (0...(words.count - entry.words.count)).contains { start in
                entry.words.indices.allSatisfy { words[start + $0].text == entry.words[$0] }
            }
            guard found else { continue }
            if kind == nil, let phraseKind = entry.kind { kind = phraseKind }
            if let food = entry.food { foods.append(food) }
        }
        for word in words {
            if kind == nil, let found = memo.kind(of: word, in: self) { kind = found }
            if let food = memo.food(of: word, in: self) { foods.append(food) }
        }
        if kind == nil && !foods.isEmpty { kind = "feeding" }
        return Classification(kind: kind, foods: foods)
    }

    /// The food a single word names, if any ("pinkies" -> "pinky").
    func food(for word: WordScanner.Word) -> String? { match(word, in: foodByWord) }

    /// The kind a single word names, if any.
    func kind(for word: WordScanner.Word) -> String? { match(word, in: kindByWord) }

    private func match(_ word: WordScanner.Word, in table: [String: String]) -> String? {
        if let exact = table[word.text] { return exact }
        guard word.isHangul else { return nil }
        // Hangul syllables are one scalar each: prefixes by scalar are prefixes by syllable.
        let scalars = Array(word.text.unicodeScalars)
        var length = min(scalars.count - 1, longestHangulWord)
        while length >= 1 {
            let prefix = String(String.UnicodeScalarView(scalars[0..<length]))
            if let found = table[prefix] {
                if length >= 2 || WordScanner.particles.contains(String(String.UnicodeScalarView(scalars[length...]))) {
                    return found
                }
            }
            length -= 1
        }
        return nil
    }
}
