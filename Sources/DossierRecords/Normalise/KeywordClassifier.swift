import DossierCore
import Foundation

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

// MARK: - KeywordTable

/// The words that say what kind of entry a line is, and the foods that make a line a feeding
/// without a verb. Data, not code: the built-in table covers Korean, English and Japanese
/// (PiyoLog's words) keepers and parents, and a library adds its own in `<library>/config/keywords.json`
/// (`{"kinds": [{"kind": "vet", "words": ["병원", "vet"]}], "foods": [{"food": "snail", "words": ["달팽이"]}]}`).
public struct KeywordTable: Codable, Sendable, Equatable {
    public struct KindWords: Codable, Sendable, Equatable {
        public var kind: String
        public var words: [String]

        public init(kind: String, words: [String]) {
            self.kind = kind
            self.words = words
        }
    }

    public struct FoodWords: Codable, Sendable, Equatable {
        /// The canonical name measurements are labelled with: "cricket".
        public var food: String
        public var words: [String]

        public init(food: String, words: [String]) {
            self.food = food
            self.words = words
        }
    }

    public var kinds: [KindWords]
    public var foods: [FoodWords]

    public init(kinds: [KindWords], foods: [FoodWords]) {
        self.kinds = kinds
        self.foods = foods
    }

    private enum CodingKeys: String, CodingKey { case kinds, foods }

    /// A library's file that leaves out a key adds nothing there: `{"kinds": [...]}` is whole.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kinds = try container.decodeIfPresent([KindWords].self, forKey: .kinds) ?? []
        foods = try container.decodeIfPresent([FoodWords].self, forKey: .foods) ?? []
    }

    /// The kind a word names: a kind itself (`weight`), or one of its words in any language the
    /// table has (`체중`, `Weight`, `体重`); nil when it names none.
    public func kind(named word: String) -> String? {
        let lowered = word.lowercased()
        if kinds.contains(where: { $0.kind == lowered }) { return lowered }
        return kinds.first { $0.words.contains { $0.lowercased() == lowered } }?.kind
    }

    /// Where a library keeps its additions, relative to its root.
    public static let configurationPath = "config/keywords.json"

    /// The built-in table with the library's additions (their words come first, so a library can
    /// re-assign a word).
    public static func load(for layout: LibraryLayout) throws -> KeywordTable {
        let url = layout.root.appendingPathComponent(configurationPath)
        guard FileManager.default.fileExists(atPath: url.path) else { return builtIn }
        do {
            let additions = try JSONDecoder().decode(KeywordTable.self, from: Data(contentsOf: url))
            return KeywordTable(kinds: additions.kinds + builtIn.kinds, foods: additions.foods + builtIn.foods)
        } catch {
            throw LibraryConfigurationError(path: url.path, reason: "\(error)")
        }
    }

    /// Every word in the table: none of them is ever a subject's name.
    public var allWords: Set<String> {
        Set((kinds.flatMap(\.words) + foods.flatMap(\.words)).map { $0.lowercased() })
    }

    public static let builtIn = KeywordTable(
        kinds: [
            KindWords(kind: "feeding", words: [
                "먹이", "급여", "밥", "먹음", "먹었", "먹었음", "먹임", "사료", "피딩", "수유", "분유", "모유", "이유식",
                "fed", "feed", "feeding", "feeds", "ate", "eat", "meal", "bottle", "nursing", "breastfed", "formula",
                // Japanese, as PiyoLog and parents write it.
                "ミルク", "母乳", "搾母乳", "授乳", "離乳食", "ごはん", "食事",
                // German, as keepers' sheets head them.
                "fütterung", "fütterungen", "gefüttert",
            ]),
            KindWords(kind: "shedding", words: ["탈피", "완탈", "탈피중", "허물", "shed", "shedding", "molt", "moult", "molted", "脱皮", "häutung", "häutungen"]),
            KindWords(kind: "weight", words: ["체중", "무게", "몸무게", "weight", "weighed", "weigh", "wt", "体重", "gewicht", "gewichte"]),
            KindWords(kind: "height", words: ["키", "신장", "height", "tall", "length", "길이", "전장", "身長"]),
            KindWords(kind: "cleaning", words: [
                "청소", "물갈이", "환수", "바닥재", "소독", "cleaning", "clean", "cleaned", "water change", "substrate",
            ]),
            KindWords(kind: "sleep", words: ["수면", "낮잠", "잠", "sleep", "slept", "nap", "寝る", "睡眠", "昼寝"]),
            KindWords(kind: "wake", words: ["起きる"]),
            KindWords(kind: "diaper", words: ["기저귀", "대변", "소변", "diaper", "poop", "pee", "おしっこ", "うんち", "おむつ"]),
            KindWords(kind: "temperature", words: ["体温"]),
            KindWords(kind: "bath", words: ["목욕", "온욕", "bath", "bathed", "soak", "お風呂", "沐浴"]),
            KindWords(kind: "health", words: ["병원", "진료", "약", "접종", "예방접종", "vet", "medicine", "vaccine", "vaccination",
                                              "病院", "薬", "予防接種"]),
            // A day's totals (PiyoLog's `ミルク合計 10回 930ml`, an app's `Daily Total` row): a line of
            // its own kind, whatever it totals, so it is never counted among the entries it sums.
            KindWords(kind: "summary", words: ["合計", "合计", "總計", "总计", "합계", "총합계", "일일합계",
                                               "total", "totals", "subtotal"]),
        ],
        foods: [
            FoodWords(food: "cricket", words: ["귀뚜라미", "귀뚜", "cricket", "crickets"]),
            FoodWords(food: "mealworm", words: ["밀웜", "mealworm", "mealworms"]),
            FoodWords(food: "superworm", words: ["슈퍼웜", "superworm", "superworms"]),
            FoodWords(food: "dubia", words: ["두비아", "dubia", "dubias", "roach", "roaches"]),
            FoodWords(food: "silkworm", words: ["누에", "silkworm", "silkworms"]),
            FoodWords(food: "waxworm", words: ["왁스웜", "waxworm", "waxworms"]),
            FoodWords(food: "hornworm", words: ["혼웜", "hornworm", "hornworms"]),
            FoodWords(food: "pinky", words: ["핑키", "pinky", "pinkies"]),
            FoodWords(food: "fuzzy", words: ["퍼지", "fuzzy", "fuzzies"]),
            FoodWords(food: "hopper", words: ["호퍼", "hopper", "hoppers"]),
            FoodWords(food: "mouse", words: ["쥐", "마우스", "mouse", "mice"]),
            FoodWords(food: "rat", words: ["랫", "rat", "rats"]),
            FoodWords(food: "diet", words: ["인공사료", "슈퍼푸드", "판게아", "레파시", "diet", "pangea", "repashy", "cgd"]),
            FoodWords(food: "milk", words: ["우유", "milk"]),
            FoodWords(food: "formula", words: ["분유", "formula", "ミルク"]),
            FoodWords(food: "breast milk", words: ["모유", "breast milk", "breastmilk", "母乳", "搾母乳"]),
        ])
}

// MARK: - WordMemo

/// What keyword lookups found for single words: logs repeat a small vocabulary, so most words
/// are looked up once. Bounded like every memo, since one is kept for a whole run.
struct WordMemo: Sendable {
    private var kinds = BoundedMemo<String?>()
    private var foods = BoundedMemo<String?>()

    mutating func kind(of word: WordScanner.Word, in classifier: KeywordClassifier) -> String? {
        kinds.answer(word.text) { _ in classifier.kind(for: word) }
    }

    mutating func food(of word: WordScanner.Word, in classifier: KeywordClassifier) -> String? {
        foods.answer(word.text) { _ in classifier.food(for: word) }
    }
}

// MARK: - WordScanner

/// Splits an entry's text into lowercased words with what sits between them: the shared first
/// step of classification and quantity reading. A number and the letters glued after it ("45g",
/// "5마리", "1時間") stay one word; the readers take them apart. A number glued after Hangul or
/// CJK letters starts a word of its own: Japanese writes no space there ("ミルク120ml",
/// "1時間30分", "左10分"), and Korean often none ("귀뚜라미5마리").
struct WordScanner {
    struct Word: Equatable {
        let text: String
        let isHangul: Bool
        /// Holds kana or Han ideographs: such text has no spaces between its words, so keywords
        /// are looked for inside it (`ミルク合計` holds ミルク and 合計).
        var isCJK = false
    }

    /// One word as the scanner would make it, for a word found some other way (a unit glued
    /// after a number).
    static func word(_ text: String) -> Word {
        let scalars = text.unicodeScalars
        return Word(text: text, isHangul: scalars.contains { isHangulSyllable($0.value) },
                    isCJK: scalars.contains { isCJK($0.value) })
    }

    static func isHangulSyllable(_ value: UInt32) -> Bool { (0xAC00...0xD7A3).contains(value) }

    /// Hiragana, katakana (full and half width) and the Han ideographs Japanese and Chinese use.
    static func isCJK(_ value: UInt32) -> Bool {
        (0x3040...0x30FF).contains(value) || (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0xFF66...0xFF9F).contains(value) || value == 0x3005  // 々
    }

    /// Read from the text's UTF-8 bytes, each word made of its slice of the text (no copy
    /// through an array, no second UTF-8 check); only a word with a capital letter in it is
    /// lowercased. Notes rarely repeat, so this runs for most records of a big import, where the
    /// former scalar-by-scalar scan (an array of the scalars, a string appended a scalar at a time,
    /// every word lowercased) weighed on the whole import (docs/performance.md, "WordScanner").
    static func words(in text: String) -> [Word] {
        var text = text
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { words(in: text, bytes: $0) } ?? []
    }

    private static func words(in text: String, bytes: UnsafeBufferPointer<UInt8>) -> [Word] {
        var words: [Word] = []
        var start = -1
        var hangul = false
        var cjk = false
        var cased = false
        /// Whether the last scalar of the open word was a Hangul syllable or CJK letter.
        var afterSyllable = false
        let utf8 = text.utf8
        func close(at end: Int) {
            guard start >= 0 else { return }
            let word = String(Substring(utf8[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)]))
            words.append(Word(text: cased ? word.lowercased() : word, isHangul: hangul, isCJK: cjk))
            start = -1
            hangul = false
            cjk = false
            cased = false
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                // A decimal point or comma inside a number belongs to it.
                let isNumberMark = (byte == 0x2E || byte == 0x2C) && index > 0 && index + 1 < count
                    && isDigit(bytes[index - 1]) && isDigit(bytes[index + 1])
                let isCapital = byte >= 0x41 && byte <= 0x5A
                if isDigit(byte) || isNumberMark || (byte >= 0x61 && byte <= 0x7A) || isCapital {
                    if afterSyllable && isDigit(byte) { close(at: index) }
                    if start < 0 { start = index }
                    if isCapital { cased = true }
                    afterSyllable = false
                } else {
                    close(at: index)
                }
                index += 1
                continue
            }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for offset in 1..<min(length, count - index) { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
            // Hangul syllables by range: the Unicode property tables are only asked about the rest.
            let isHangulSyllable = WordScanner.isHangulSyllable(value)
            if isHangulSyllable || Unicode.Scalar(value)?.properties.isAlphabetic == true {
                if start < 0 { start = index }
                let isCJK = !isHangulSyllable && WordScanner.isCJK(value)
                if isHangulSyllable { hangul = true } else { cased = true }
                if isCJK { cjk = true }
                afterSyllable = isHangulSyllable || isCJK
            } else {
                close(at: index)
            }
            index += length
        }
        close(at: count)
        return words
    }

    /// Hangul words carry particles (귀뚜라미를, 체중은): these are the endings a keyword may have
    /// when the keyword is a single syllable, which would otherwise match too much (키우기, 약간).
    static let particles: Set<String> = ["을", "를", "이", "가", "은", "는", "도", "만", "에", "로", "으로", "랑", "와", "과"]
}
