/// The twelve animals of the Chinese zodiac (띠), by lunar year: the year changes at lunar new
/// year (설날), so a child born in January is usually the previous year's animal.
/// Names as in Unicode CLDR's Korean and English zodiac names.
enum ChineseZodiac {
    static let animals: [LocalizedName] = [
        LocalizedName(ko: "쥐", en: "Rat"), LocalizedName(ko: "소", en: "Ox"),
        LocalizedName(ko: "호랑이", en: "Tiger"), LocalizedName(ko: "토끼", en: "Rabbit"),
        LocalizedName(ko: "용", en: "Dragon"), LocalizedName(ko: "뱀", en: "Snake"),
        LocalizedName(ko: "말", en: "Horse"), LocalizedName(ko: "양", en: "Goat"),
        LocalizedName(ko: "원숭이", en: "Monkey"), LocalizedName(ko: "닭", en: "Rooster"),
        LocalizedName(ko: "개", en: "Dog"), LocalizedName(ko: "돼지", en: "Pig"),
    ]

    /// The animal of a lunar year numbered as `LunarDate.year` numbers it (2020 was a Rat year).
    static func animal(ofLunarYear year: Int) -> LocalizedName {
        animals[((year - 2020) % 12 + 12) % 12]
    }
}
