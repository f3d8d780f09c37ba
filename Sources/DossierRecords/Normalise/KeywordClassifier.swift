/// Finds the kind of an entry, and the foods it names, from a `KeywordTable`.
///
/// A kind word anywhere in the entry decides (the first one, reading left to right), except that
/// a summary word outranks every other: `ミルク合計 10回 930ml` and `Total feeds: 6` total the
/// feedings of a day and are none themselves. Failing a kind word, a food makes it a feeding
/// ("귀뚜라미 5마리", "밀웜 5"). Korean words match with their particles (귀뚜라미를); a one-syllable
/// word (밥, 키, 약) only alone or with a particle. Japanese and Chinese write no spaces between
/// words, so keywords are found inside their text (`ミルク合計` holds ミルク and 合計).
public struct KeywordClassifier: Sendable {
    private let kindByWord: [String: String]
    private let foodByWord: [String: String]
    /// Keywords of several words ("water change"), matched against consecutive words.
    private let phrases: [(words: [String], kind: String?, food: String?)]
    private let longestHangulWord: Int
    /// In scalars: how far a keyword found inside CJK text can reach.
    private let longestCJKWord: Int

    /// Hangul keywords of outranking kinds, of two syllables or more: Korean glues them to what
    /// they total (`분유합계`), so they are found anywhere in a word, not only at its start.
    private let outrankingHangulWords: [(word: String, kind: String)]

    /// The kinds that win over any other word in the entry.
    static let outrankingKinds: Set<String> = ["summary"]

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
        outrankingHangulWords = kinds.filter { entry in
            KeywordClassifier.outrankingKinds.contains(entry.value) && entry.key.unicodeScalars.count >= 2
                && entry.key.unicodeScalars.allSatisfy { WordScanner.isHangulSyllable($0.value) }
        }.map { ($0.key, $0.value) }.sorted { $0.word < $1.word }
        longestCJKWord = (Array(kinds.keys) + Array(foods.keys)).filter { WordScanner.word($0).isCJK }
            .map(\.unicodeScalars.count).max() ?? 0
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
        for (position, word) in words.enumerated() {
            if let found = memo.kind(of: word, in: self), kind == nil || KeywordClassifier.outranks(found, kind!),
               !KeywordClassifier.isTrailingEnglishSummary(found, word, at: position) {
                kind = found
            }
            if let food = memo.food(of: word, in: self) { foods.append(food) }
        }
        if kind == nil && !foods.isEmpty { kind = "feeding" }
        return Classification(kind: kind, foods: foods)
    }

    /// The food a single word names, if any ("pinkies" -> "pinky").
    func food(for word: WordScanner.Word) -> String? { match(word, in: foodByWord) }

    /// The kind a single word names, if any: an outranking keyword anywhere in a Hangul word
    /// (`분유합계`); of several found inside CJK text, an outranking one, else the first.
    func kind(for word: WordScanner.Word) -> String? {
        if word.isHangul, kindByWord[word.text] == nil,
           let outranking = outrankingHangulWords.first(where: { word.text.contains($0.word) }) {
            return outranking.kind
        }
        guard word.isCJK, kindByWord[word.text] == nil else { return match(word, in: kindByWord) }
        let found = matchesInside(word, in: kindByWord)
        return found.first(where: KeywordClassifier.outrankingKinds.contains) ?? found.first
    }

    /// `Total feeds: 6` and `Daily Total` are summaries; `fed 5, total 10 this week` is a feeding
    /// whose note adds something up: an English summary word only heads an entry.
    private static func isTrailingEnglishSummary(_ kind: String, _ word: WordScanner.Word, at position: Int) -> Bool {
        outrankingKinds.contains(kind) && position > 1 && word.text.unicodeScalars.allSatisfy(\.isASCII)
    }

    private static func outranks(_ found: String, _ kind: String) -> Bool {
        outrankingKinds.contains(found) && !outrankingKinds.contains(kind)
    }

    private func match(_ word: WordScanner.Word, in table: [String: String]) -> String? {
        if let exact = table[word.text] { return exact }
        if word.isCJK { return matchesInside(word, in: table).first }
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

    /// The keywords inside CJK text, left to right, each the longest that starts where it does
    /// (`搾母乳` is 搾母乳, not 母乳), the next looked for after it. Only text with no keyword of
    /// its own comes here, once per distinct word (`WordMemo`).
    private func matchesInside(_ word: WordScanner.Word, in table: [String: String]) -> [String] {
        let scalars = Array(word.text.unicodeScalars)
        var found: [String] = []
        var start = 0
        while start < scalars.count {
            // Keywords are looked for where CJK letters start, so none of Latin or Hangul is found
            // inside a mixed word ("ミルクfeed" holds no "eat").
            guard WordScanner.isCJK(scalars[start].value) else {
                start += 1
                continue
            }
            var length = min(longestCJKWord, scalars.count - start)
            var matched = 0
            while length >= 1 {
                if let value = table[String(String.UnicodeScalarView(scalars[start..<(start + length)]))] {
                    found.append(value)
                    matched = length
                    break
                }
                length -= 1
            }
            start += max(matched, 1)
        }
        return found
    }
}
