import DossierCore
import Foundation
import Testing
@testable import DossierRecords

@Suite("A child's derived profile fields: age, zodiac, star sign, birthstone, lunar birthday, 100th day")
struct ProfileDerivedFieldsTests {
    static func day(_ text: String) -> RecordDate { RecordDate(iso8601: text)! }

    static func fields(_ birth: String, asOf: String = "2030-01-01") -> ChildDerivedFields {
        ChildDerivedFields.compute(birth: day(birth), asOf: day(asOf))!
    }

    @Test("The zodiac year turns at lunar new year, not on 1 January")
    func zodiacTurnsAtSeollal() {
        // Seollal 2024 was 10 February, 2023 was 22 January.
        #expect(Self.fields("2024-02-09").chineseZodiac == LocalizedName(ko: "토끼", en: "Rabbit"))
        #expect(Self.fields("2024-02-10").chineseZodiac == LocalizedName(ko: "용", en: "Dragon"))
        #expect(Self.fields("2023-01-21").chineseZodiac == LocalizedName(ko: "호랑이", en: "Tiger"))
        #expect(Self.fields("2023-01-22").chineseZodiac == LocalizedName(ko: "토끼", en: "Rabbit"))
        #expect(Self.fields("2024-01-01").chineseZodiac == LocalizedName(ko: "토끼", en: "Rabbit"))
        #expect(Self.fields("2020-12-31").chineseZodiac == LocalizedName(ko: "쥐", en: "Rat"))
        #expect(Self.fields("2027-03-01").chineseZodiac == LocalizedName(ko: "양", en: "Goat"))
        #expect(Self.fields("2031-03-01").chineseZodiac == LocalizedName(ko: "돼지", en: "Pig"))
    }

    @Test("Seollal is reckoned in Korea: 1988's was 18 February (KASI), China's 17 February")
    func koreanNotChineseNewYear() {
        let eve = Self.fields("1988-02-17")
        #expect(eve.chineseZodiac == LocalizedName(ko: "토끼", en: "Rabbit"))
        #expect(eve.lunarBirthday == LunarDate(year: 1987, month: 12, day: 30, isLeapMonth: false))
        let seollal = Self.fields("1988-02-18")
        #expect(seollal.chineseZodiac == LocalizedName(ko: "용", en: "Dragon"))
        #expect(seollal.lunarBirthday == LunarDate(year: 1988, month: 1, day: 1, isLeapMonth: false))
        #expect(KoreanLunarCalendar.isDangi)
    }

    @Test("ICU's Chinese calendar, even on Seoul time, is not the Korean one: that is why dangi is used")
    func chineseCalendarIsNotKorean() {
        var chinese = Calendar(identifier: .chinese)
        chinese.timeZone = TimeZone(secondsFromGMT: 9 * 3600)!
        func chineseDate(_ text: String) -> [Int?] {
            let day = Self.day(text)
            let noon = LocalDateTime(year: day.year, month: day.month, day: day.day, hour: 12)!.date(in: chinese.timeZone)
            let parts = chinese.dateComponents([.month, .day, .isLeapMonth], from: noon)
            return [parts.month, parts.day, parts.isLeapMonth.map { $0 ? 1 : 0 }]
        }
        #expect(chineseDate("1988-02-17") == [1, 1, 0])
        #expect(Self.fields("1988-02-17").lunarBirthday == LunarDate(year: 1987, month: 12, day: 30, isLeapMonth: false))
        #expect(chineseDate("2012-04-21") == [4, 1, 0])
        #expect(Self.fields("2012-04-21").lunarBirthday == LunarDate(year: 2012, month: 3, day: 1, isLeapMonth: true))
        // Where the new moon is well inside the day in both countries, they agree.
        #expect(chineseDate("2023-03-22") == [2, 1, 1])
    }

    @Test("Lunar birthdays of known dates, leap months included")
    func lunarBirthdays() {
        let cases: [(String, LunarDate)] = [
            ("2024-02-10", LunarDate(year: 2024, month: 1, day: 1, isLeapMonth: false)),
            ("2024-02-09", LunarDate(year: 2023, month: 12, day: 30, isLeapMonth: false)),
            // 2023's 윤2월 ran from 22 March to 19 April.
            ("2023-03-21", LunarDate(year: 2023, month: 2, day: 30, isLeapMonth: false)),
            ("2023-03-22", LunarDate(year: 2023, month: 2, day: 1, isLeapMonth: true)),
            ("2023-04-19", LunarDate(year: 2023, month: 2, day: 29, isLeapMonth: true)),
            ("2023-04-20", LunarDate(year: 2023, month: 3, day: 1, isLeapMonth: false)),
            // The new moon was at 15:53 UTC on 19 May 2023: 23:53 in Beijing, 00:53 on the 20th in Seoul.
            ("2023-05-19", LunarDate(year: 2023, month: 3, day: 30, isLeapMonth: false)),
            ("2023-05-20", LunarDate(year: 2023, month: 4, day: 1, isLeapMonth: false)),
            // Korea's leap months of 2012 and 2017 (윤3월, 윤5월) are not China's (闰四月, 闰六月).
            ("2012-04-21", LunarDate(year: 2012, month: 3, day: 1, isLeapMonth: true)),
            ("2017-06-24", LunarDate(year: 2017, month: 5, day: 1, isLeapMonth: true)),
        ]
        for (birth, lunar) in cases {
            #expect(Self.fields(birth).lunarBirthday == lunar, "\(birth)")
        }
        #expect(LunarDate(year: 2023, month: 2, day: 1, isLeapMonth: true).description == "2023-윤02-01")
        #expect(LunarDate(year: 2024, month: 11, day: 15, isLeapMonth: false).description == "2024-11-15")
    }

    @Test("A day ICU gives as lunar day 0 (dangi, 2097-01-13) becomes the day after the one before")
    func icuDayZero() {
        #expect(KoreanLunarCalendar.lunarDate(of: Self.day("2097-01-12"))
            == LunarDate(year: 2096, month: 11, day: 29, isLeapMonth: false))
        #expect(KoreanLunarCalendar.lunarDate(of: Self.day("2097-01-13"))
            == LunarDate(year: 2096, month: 11, day: 30, isLeapMonth: false))
    }

    @Test("The 100th day is birth + 99 days, across February in leap and common years and across a year end")
    func hundredthDay() {
        // Jan 25-31: 7 days, Feb: 29 (36), Mar: 31 (67), Apr: 30 (97), May 1-3: 100.
        #expect(Self.fields("2024-01-25").hundredthDay == Self.day("2024-05-03"))
        // Jan 25-31: 7, Feb: 28 (35), Mar: 31 (66), Apr: 30 (96), May 1-4: 100.
        #expect(Self.fields("2023-01-25").hundredthDay == Self.day("2023-05-04"))
        // Dec: 31, Jan: 31 (62), Feb: 29 (91), Mar 1-9: 100.
        #expect(Self.fields("2023-12-01").hundredthDay == Self.day("2024-03-09"))
        // Feb 29 is day 1: Mar 31 (32), Apr 30 (62), May 31 (93), Jun 1-7: 100.
        #expect(Self.fields("2024-02-29").hundredthDay == Self.day("2024-06-07"))
        // Counting, rather than trusting CivilDays: day 1 is the birth date.
        var date = Self.day("2024-01-25")
        for _ in 2...100 {
            let last = CivilDays.daysIn(month: date.month, year: date.year)
            date = date.day < last ? RecordDate(year: date.year, month: date.month, day: date.day + 1)!
                : date.month < 12 ? RecordDate(year: date.year, month: date.month + 1, day: 1)!
                : RecordDate(year: date.year + 1, month: 1, day: 1)!
        }
        #expect(date == Self.day("2024-05-03"))
    }

    @Test("The first birthday is a year on; a 29 February child has it on 28 February")
    func firstBirthday() {
        #expect(Self.fields("2023-05-07").firstBirthday == Self.day("2024-05-07"))
        #expect(Self.fields("2024-02-29").firstBirthday == Self.day("2025-02-28"))
        #expect(Self.fields("2023-02-28").firstBirthday == Self.day("2024-02-28"))
    }

    @Test("Star signs change on the first day of each sign in the usual table")
    func starSigns() {
        let cases: [(String, String, String)] = [
            ("01-01", "염소자리", "Capricorn"), ("01-19", "염소자리", "Capricorn"), ("01-20", "물병자리", "Aquarius"),
            ("02-18", "물병자리", "Aquarius"), ("02-19", "물고기자리", "Pisces"), ("03-20", "물고기자리", "Pisces"),
            ("03-21", "양자리", "Aries"), ("04-19", "양자리", "Aries"), ("04-20", "황소자리", "Taurus"),
            ("05-20", "황소자리", "Taurus"), ("05-21", "쌍둥이자리", "Gemini"), ("06-20", "쌍둥이자리", "Gemini"),
            ("06-21", "게자리", "Cancer"), ("07-22", "게자리", "Cancer"), ("07-23", "사자자리", "Leo"),
            ("08-22", "사자자리", "Leo"), ("08-23", "처녀자리", "Virgo"), ("09-22", "처녀자리", "Virgo"),
            ("09-23", "천칭자리", "Libra"), ("10-22", "천칭자리", "Libra"), ("10-23", "전갈자리", "Scorpio"),
            ("11-21", "전갈자리", "Scorpio"), ("11-22", "사수자리", "Sagittarius"), ("12-21", "사수자리", "Sagittarius"),
            ("12-22", "염소자리", "Capricorn"), ("12-31", "염소자리", "Capricorn"),
        ]
        for (monthDay, ko, en) in cases {
            #expect(Self.fields("2024-" + monthDay).starSign == LocalizedName(ko: ko, en: en), "\(monthDay)")
        }
    }

    @Test("The birthstone is the birth month's")
    func birthstones() {
        let stones = ["가넷/Garnet", "자수정/Amethyst", "아쿠아마린/Aquamarine", "다이아몬드/Diamond", "에메랄드/Emerald",
                      "진주/Pearl", "루비/Ruby", "페리도트/Peridot", "사파이어/Sapphire", "오팔/Opal", "토파즈/Topaz",
                      "터키석/Turquoise"]
        for month in 1...12 {
            let stone = Self.fields(String(format: "2023-%02d-15", month)).birthstone
            #expect("\(stone.ko)/\(stone.en)" == stones[month - 1])
        }
    }

    @Test("Age in full years goes up on the birthday, not the day before")
    func ageInYears() {
        #expect(Self.fields("2020-05-07", asOf: "2024-05-06").ageInYears == 3)
        #expect(Self.fields("2020-05-07", asOf: "2024-05-07").ageInYears == 4)
        #expect(Self.fields("2020-05-07", asOf: "2020-05-07").ageInYears == 0)
        #expect(Self.fields("2020-05-07", asOf: "2021-05-06").ageInYears == 0)
        #expect(Self.fields("2020-05-07", asOf: "2021-05-07").ageInYears == 1)
        #expect(Self.fields("2020-12-31", asOf: "2021-01-01").ageInYears == 0)
        // Before birth (a profile made ahead of a due date): 0, never negative.
        #expect(Self.fields("2020-05-07", asOf: "2019-01-01").ageInYears == 0)
        // A 29 February child is a year older on 28 February in common years.
        #expect(Self.fields("2024-02-29", asOf: "2025-02-27").ageInYears == 0)
        #expect(Self.fields("2024-02-29", asOf: "2025-02-28").ageInYears == 1)
        #expect(Self.fields("2024-02-29", asOf: "2028-02-28").ageInYears == 3)
        #expect(Self.fields("2024-02-29", asOf: "2028-02-29").ageInYears == 4)
    }

    @Test("A time of birth or of asOf changes nothing; asOf is kept as a day")
    func timesIgnored() {
        let withTime = ChildDerivedFields.compute(birth: Self.day("2024-02-10T00:30+09:00"), asOf: Self.day("2025-02-10T23:59"))!
        #expect(withTime == ChildDerivedFields.compute(birth: Self.day("2024-02-10"), asOf: Self.day("2025-02-10"))!)
        #expect(withTime.asOf == Self.day("2025-02-10"))
        #expect(withTime.ageInYears == 1)
    }

    @Test("Nil only when the 100th day or first birthday would be past 9999")
    func outOfRange() {
        #expect(ChildDerivedFields.compute(birth: Self.day("9999-01-01"), asOf: Self.day("9999-06-01")) == nil)
        #expect(ChildDerivedFields.compute(birth: Self.day("9998-12-31"), asOf: Self.day("9999-06-01"))?.firstBirthday
            == Self.day("9999-12-31"))
    }

    @Test("Stored as JSON with the rules version, and read back the same")
    func json() throws {
        let fields = Self.fields("2024-02-10", asOf: "2025-03-01")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(fields), as: UTF8.self)
        #expect(text == """
            {"ageInYears":1,"asOf":"2025-03-01","birthstone":{"en":"Amethyst","ko":"자수정"},\
            "chineseZodiac":{"en":"Dragon","ko":"용"},"firstBirthday":"2025-02-10","hundredthDay":"2024-05-19",\
            "lunarBirthday":{"day":1,"isLeapMonth":false,"month":1,"year":2024},"rulesVersion":1,\
            "starSign":{"en":"Aquarius","ko":"물병자리"}}
            """)
        #expect(try JSONDecoder().decode(ChildDerivedFields.self, from: Data(text.utf8)) == fields)
        #expect(!fields.isStale)
        let older = try JSONDecoder().decode(ChildDerivedFields.self, from: Data(text.replacingOccurrences(
            of: "\"rulesVersion\":1", with: "\"rulesVersion\":0").utf8))
        #expect(older.isStale)
    }
}
