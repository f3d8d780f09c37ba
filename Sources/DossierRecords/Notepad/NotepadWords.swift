/// The English words, Hangul syllables and Japanese characters that mark dates and times in
/// notepad logs.
///
/// English words are compared as packed integers (five bits a letter), so recognising a word
/// costs no String and no allocation on the per-line path.
enum NotepadWords {
    /// Up to 12 ASCII letters, case folded; 0 for anything longer, which matches nothing.
    static func pack<S: Sequence<UInt8>>(_ letters: S) -> UInt64 {
        var packed: UInt64 = 0
        var count = 0
        for letter in letters {
            count += 1
            guard count <= 12 else { return 0 }
            packed = packed << 5 | UInt64((letter | 0x20) - UInt8(ascii: "a") + 1)
        }
        return packed
    }

    /// Words that head a line like a name (`아침: 귀뚜라미 2`, `Note - shed today`) but name a
    /// time of day or a kind of note: never a subject, whatever the file.
    static let neverNames: Set<String> = [
        "메모", "노트", "참고", "기타", "비고", "할일", "오늘", "어제", "내일",
        "아침", "점심", "저녁", "밤", "새벽", "오전", "오후", "낮", "자정", "정오",
        "note", "notes", "memo", "nb", "ps", "todo", "to-do", "reminder", "update", "info", "misc", "other",
        "today", "yesterday", "tonight", "morning", "noon", "midday", "afternoon", "evening", "night", "midnight",
        "am", "pm", "a.m.", "p.m.", "later", "earlier",
    ]

    static let months: [UInt64: Int] = table([
        ("jan", 1), ("january", 1), ("feb", 2), ("february", 2), ("mar", 3), ("march", 3), ("apr", 4), ("april", 4),
        ("may", 5), ("jun", 6), ("june", 6), ("jul", 7), ("july", 7), ("aug", 8), ("august", 8),
        ("sep", 9), ("sept", 9), ("september", 9), ("oct", 10), ("october", 10), ("nov", 11), ("november", 11),
        ("dec", 12), ("december", 12),
    ])

    static let weekdays: [UInt64: Int] = table([
        ("sun", 0), ("sunday", 0), ("mon", 1), ("monday", 1), ("tue", 2), ("tues", 2), ("tuesday", 2),
        ("wed", 3), ("wednesday", 3), ("thu", 4), ("thur", 4), ("thurs", 4), ("thursday", 4),
        ("fri", 5), ("friday", 5), ("sat", 6), ("saturday", 6),
    ])

    static let ordinalSuffixes: Set<UInt64> = Set(["st", "nd", "rd", "th"].map { pack($0.utf8) })
    static let am = pack("am".utf8)
    static let pm = pack("pm".utf8)

    // Hangul syllables, as scalar values.
    static let year: UInt32 = 0xB144        // 년
    static let month: UInt32 = 0xC6D4       // 월 (also Monday)
    static let day: UInt32 = 0xC77C         // 일 (also Sunday)
    static let weekdayEnding: UInt32 = 0xC694  // 요, as in 일요일
    static let koreanWeekdays: Set<UInt32> = [0xC6D4, 0xD654, 0xC218, 0xBAA9, 0xAE08, 0xD1A0, 0xC77C]  // 월화수목금토일
    static let morningOrAfternoon: UInt32 = 0xC624  // 오, as in 오전 and 오후
    static let beforeNoon: UInt32 = 0xC804  // 전
    static let afterNoon: UInt32 = 0xD6C4   // 후
    static let hour: UInt32 = 0xC2DC        // 시
    static let minute: UInt32 = 0xBD84      // 분
    static let span: UInt32 = 0xAC04        // 간, as in 3시간 (three hours), which is no time of day

    // Japanese (and Chinese) date marks, as scalar values: 2024年1月5日(金), as PiyoLog writes.
    static let japaneseYear: UInt32 = 0x5E74    // 年
    static let japaneseMonth: UInt32 = 0x6708   // 月 (also Monday)
    static let japaneseDay: UInt32 = 0x65E5     // 日 (also Sunday)
    static let japaneseWeekdays: Set<UInt32> = [0x65E5, 0x6708, 0x706B, 0x6C34, 0x6728, 0x91D1, 0x571F]  // 日月火水木金土
    static let japaneseWeekdayMark: UInt32 = 0x66DC  // 曜, as in 金曜日
    /// 歳 and 才, the years of an age: `はなこ (0歳3か月4日)`.
    static let ageYears: Set<UInt32> = [0x6B73, 0x624D]
    /// What else an age in brackets is written with: か, ヵ, ヶ, カ, ケ, 箇 (months counted), 月, 日.
    static let ageMarks: Set<UInt32> = [0x304B, 0x30F5, 0x30F6, 0x30AB, 0x30B1, 0x7B87, 0x6708, 0x65E5]

    private static func table(_ words: [(String, Int)]) -> [UInt64: Int] {
        Dictionary(uniqueKeysWithValues: words.map { (pack($0.0.utf8), $0.1) })
    }
}
