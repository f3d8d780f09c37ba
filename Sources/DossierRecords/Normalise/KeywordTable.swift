import DossierCore
import Foundation

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
