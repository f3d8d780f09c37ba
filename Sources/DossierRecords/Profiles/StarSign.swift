/// The western star sign (별자리) of a birthday.
///
/// The Sun enters each sign on a day that moves by one from year to year, so every table is
/// an approximation. This is the table most English-language horoscopes print:
/// Aquarius 01-20, Pisces 02-19, Aries 03-21, Taurus 04-20, Gemini 05-21, Cancer 06-21,
/// Leo 07-23, Virgo 08-23, Libra 09-23, Scorpio 10-23, Sagittarius 11-22, Capricorn 12-22
/// (each sign's first day). Some Korean portals print another (Capricorn from 12-25, say);
/// a change of table is a change of rules and bumps `ChildDerivedFields.currentRulesVersion`.
enum StarSign {
    /// Each sign with its first day, in calendar order from January.
    static let signs: [(month: Int, day: Int, name: LocalizedName)] = [
        (1, 20, LocalizedName(ko: "물병자리", en: "Aquarius")),
        (2, 19, LocalizedName(ko: "물고기자리", en: "Pisces")),
        (3, 21, LocalizedName(ko: "양자리", en: "Aries")),
        (4, 20, LocalizedName(ko: "황소자리", en: "Taurus")),
        (5, 21, LocalizedName(ko: "쌍둥이자리", en: "Gemini")),
        (6, 21, LocalizedName(ko: "게자리", en: "Cancer")),
        (7, 23, LocalizedName(ko: "사자자리", en: "Leo")),
        (8, 23, LocalizedName(ko: "처녀자리", en: "Virgo")),
        (9, 23, LocalizedName(ko: "천칭자리", en: "Libra")),
        (10, 23, LocalizedName(ko: "전갈자리", en: "Scorpio")),
        (11, 22, LocalizedName(ko: "사수자리", en: "Sagittarius")),
        (12, 22, LocalizedName(ko: "염소자리", en: "Capricorn")),
    ]

    static func sign(month: Int, day: Int) -> LocalizedName {
        // The last sign that has begun by this day; before 20 January, Capricorn (from December).
        signs.last { ($0.month, $0.day) <= (month, day) }?.name ?? signs[11].name
    }
}
