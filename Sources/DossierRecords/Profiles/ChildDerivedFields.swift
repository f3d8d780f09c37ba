import DossierCore

/// What the old diary apps showed next to a child's birth date, worked out once and kept in the
/// child's `profile.json`.
///
/// The values are stored, not only computed on display, so that the profile is readable
/// without Dossier; `rulesVersion` says which rules made them, so a newer Dossier can tell
/// stale fields (a changed star-sign table, say) and recompute them from the birth date.
public struct ChildDerivedFields: Codable, Equatable, Sendable {
    /// Bump when any rule below changes what it gives for some birth date.
    /// 1: full-year age (29 February births a year older on 28 February in common years),
    /// zodiac and lunar date by the Korean (dangi) calendar, star signs as in `StarSign`,
    /// the modern birthstone list, 100th day = birth + 99 days.
    public static let currentRulesVersion = 1

    public let rulesVersion: Int
    /// The day the age was computed for.
    public let asOf: RecordDate
    /// Full years (만 나이) on `asOf`; 0 before the first birthday, and for a date before birth.
    public let ageInYears: Int
    /// 띠: by lunar year, which begins at Seollal (Korean lunar new year), not on 1 January.
    public let chineseZodiac: LocalizedName
    /// Western sign, by the table in `StarSign`.
    public let starSign: LocalizedName
    /// By birth month.
    public let birthstone: LocalizedName
    /// The birth date in the Korean lunar calendar (음력 생일).
    public let lunarBirthday: LunarDate
    /// 백일: the birth date is day 1, so this is birth + 99 days.
    public let hundredthDay: RecordDate
    /// 돌: birth + 1 year; a 29 February birth has it on 28 February.
    public let firstBirthday: RecordDate

    public init(rulesVersion: Int, asOf: RecordDate, ageInYears: Int, chineseZodiac: LocalizedName,
                starSign: LocalizedName, birthstone: LocalizedName, lunarBirthday: LunarDate,
                hundredthDay: RecordDate, firstBirthday: RecordDate) {
        self.rulesVersion = rulesVersion
        self.asOf = asOf
        self.ageInYears = ageInYears
        self.chineseZodiac = chineseZodiac
        self.starSign = starSign
        self.birthstone = birthstone
        self.lunarBirthday = lunarBirthday
        self.hundredthDay = hundredthDay
        self.firstBirthday = firstBirthday
    }

    /// True when these fields were made by older rules and should be computed again.
    public var isStale: Bool { rulesVersion < ChildDerivedFields.currentRulesVersion }

    /// The fields for a child born on `birth` (a time of birth is ignored: every rule here is by
    /// day), with the age on `asOf`. Nil only for a birth in the last year RecordDate holds
    /// (9999), whose 100th day or first birthday would not be a RecordDate.
    public static func compute(birth: RecordDate, asOf: RecordDate) -> ChildDerivedFields? {
        let birth = birth.dayOnly
        guard let hundredthDay = CivilDays.adding(99, to: birth),
              let firstBirthday = CivilDays.anniversary(of: birth, in: birth.year + 1)
        else { return nil }
        let lunarBirthday = KoreanLunarCalendar.lunarDate(of: birth)
        return ChildDerivedFields(
            rulesVersion: currentRulesVersion,
            asOf: asOf.dayOnly,
            ageInYears: age(born: birth, on: asOf.dayOnly),
            chineseZodiac: ChineseZodiac.animal(ofLunarYear: lunarBirthday.year),
            starSign: StarSign.sign(month: birth.month, day: birth.day),
            birthstone: Birthstone.stone(month: birth.month),
            lunarBirthday: lunarBirthday,
            hundredthDay: hundredthDay,
            firstBirthday: firstBirthday)
    }

    /// Full years: one more on each birthday, kept on the day `Anniversaries` greets it, so the
    /// age shown and the greeting agree. (Korean law, Civil Act art. 160(3), would make a
    /// 29 February child a year older only on 1 March in a common year.)
    static func age(born birth: RecordDate, on day: RecordDate) -> Int {
        guard day > birth else { return 0 }
        let years = day.year - birth.year
        guard let birthday = CivilDays.anniversary(of: birth, in: day.year) else { return years }
        return day < birthday ? years - 1 : years
    }
}
