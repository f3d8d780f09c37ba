import DossierCore
import Testing
@testable import DossierRecords

@Suite("Notepad lines: dates, weekdays and times")
struct NotepadDateTests {
    typealias F = NotepadFixtures

    /// The events of `line` after a line that sets the year (2023-04-30).
    func afterStart(_ line: String, monthFirst: Bool = true) -> [NotepadEvent] {
        F.parse("2023-04-30 start\n" + line, monthFirst: monthFirst)
    }

    func startThen(_ event: NotepadEvent) -> [NotepadEvent] {
        [F.entry(1, "2023-04-30", nil, "start", text: "2023-04-30 start"), event]
    }

    @Test("Every numeric and Korean date form with a year gives its day; the rest is the body")
    func datesWithYears() {
        let cases: [(line: String, date: String)] = [
            ("2023-05-01 fed", "2023-05-01"),
            ("2023.05.01 fed", "2023-05-01"),
            ("2023/5/1 fed", "2023-05-01"),
            ("2023.5.1. fed", "2023-05-01"),
            ("2023. 5. 1. fed", "2023-05-01"),
            ("23.05.01 fed", "2023-05-01"),
            ("23-05-01 fed", "2023-05-01"),
            ("2023년 5월 1일 fed", "2023-05-01"),
            ("2023년5월1일 fed", "2023-05-01"),
            ("23년 5월 1일 fed", "2023-05-01"),
            ("05/07/2024 fed", "2024-05-07"),
            ("5/7/24 fed", "2024-05-07"),
            ("May 3, 2024 fed", "2024-05-03"),
            ("May 3 2024 fed", "2024-05-03"),
            ("may 3rd, 2024 fed", "2024-05-03"),
            ("Sept. 3, 2024 fed", "2024-09-03"),
            ("3 May 2024 fed", "2024-05-03"),
            ("3rd May 2024 fed", "2024-05-03"),
            ("Sunday, May 5, 2024 fed", "2024-05-05"),
            ("2024-02-29 fed", "2024-02-29"),
        ]
        for (line, date) in cases {
            #expect(F.parse(line) == [F.entry(1, date, nil, "fed", text: line)], "\(line)")
        }
    }

    @Test("Dates without a year (5월 1일, 5/1, May 3, 3 May) take the year of the line before")
    func datesWithoutYears() {
        let cases: [(line: String, date: String)] = [
            ("5월 1일 fed", "2023-05-01"),
            ("5월1일 fed", "2023-05-01"),
            ("5/1 fed", "2023-05-01"),
            ("12/25 fed", "2023-12-25"),
            ("May 3 fed", "2023-05-03"),
            ("May 3, fed", "2023-05-03"),
            ("3 May fed", "2023-05-03"),
            ("Dec 25th fed", "2023-12-25"),
        ]
        for (line, date) in cases {
            #expect(afterStart(line) == startThen(F.entry(2, date, nil, "fed", text: line)), "\(line)")
        }
    }

    @Test("Weekdays in any form are dropped: (일), (일요일), 일요일, (Sun), (sunday), Sun, Sunday")
    func weekdays() {
        let cases = ["2023.05.07 (일) fed", "2023.05.07(일) fed", "2023.05.07 (일요일) fed", "2023.05.07 일요일 fed",
                     "2023.05.07 （일） fed", "2023-05-07 (Sun) fed", "2023-05-07 (sunday) fed", "2023-05-07 Sun fed",
                     "2023-05-07 Sunday fed", "2023-05-07, Sun. fed", "5월 7일 (일) fed", "May 7 (Sun) fed"]
        for line in cases {
            #expect(afterStart(line) == startThen(F.entry(2, "2023-05-07", nil, "fed", text: line)), "\(line)")
        }
    }

    @Test("A lower-case or Korean one-syllable weekday without brackets stays in the body")
    func bareWeekdaysNeedTheirWholeForm() {
        #expect(F.parse("2023-05-07 sun basking") == [F.entry(1, "2023-05-07", nil, "sun basking", text: "2023-05-07 sun basking")])
        #expect(F.parse("2023-05-07 일 많이 함") == [F.entry(1, "2023-05-07", nil, "일 많이 함", text: "2023-05-07 일 많이 함")])
    }

    @Test("Times in 24-hour, 오전/오후, AM/PM, ISO and 시/분 forms set hour and minute")
    func times() {
        let cases: [(line: String, date: String)] = [
            ("2023-05-07 14:30 fed", "2023-05-07T14:30"),
            ("2023-05-07 9:05 fed", "2023-05-07T09:05"),
            ("2023-05-07 09:05:59 fed", "2023-05-07T09:05"),
            ("2023-05-07 오후 3:30 fed", "2023-05-07T15:30"),
            ("2023-05-07 오전 9:05 fed", "2023-05-07T09:05"),
            ("2023-05-07 오후 12:10 fed", "2023-05-07T12:10"),
            ("2023-05-07 오전 12:10 fed", "2023-05-07T00:10"),
            ("2023-05-07 3:30 PM fed", "2023-05-07T15:30"),
            ("2023-05-07 3:30pm fed", "2023-05-07T15:30"),
            ("2023-05-07 3:30 a.m. fed", "2023-05-07T03:30"),
            ("2023-05-07 12:05 AM fed", "2023-05-07T00:05"),
            ("2023-05-07 PM 3:30 fed", "2023-05-07T15:30"),
            ("2023-05-07T08:15 fed", "2023-05-07T08:15"),
            ("2023년 5월 7일 (일) 오후 3시 30분 fed", "2023-05-07T15:30"),
            ("2023-05-07 (일) 15시 fed", "2023-05-07T15:00"),
            ("May 7, 2023 (Sun) 3:30 PM fed", "2023-05-07T15:30"),
            ("[2023-05-07 14:30] fed", "2023-05-07T14:30"),
        ]
        for (line, date) in cases {
            #expect(F.parse(line) == [F.entry(1, date, nil, "fed", text: line)], "\(line)")
        }
    }

    @Test("Numbers in the body are never dates or times: counts, masses, lengths, decimals, durations")
    func numbersInBodies() {
        let bodies = ["밀웜 10", "2 pinkies", "45g", "75cm", "0.6 oz milk", "1-2 crickets", "10 crickets", "3시간 일광욕",
                      "1.5 pinkies", "10:3 ratio", "2023 was a good year", "May be shedding"]
        for body in bodies {
            #expect(afterStart(body) == startThen(F.entry(2, "2023-04-30", nil, body, text: body)), "\(body)")
            let dated = "2023-05-01 " + body
            #expect(F.parse(dated) == [F.entry(1, "2023-05-01", nil, body, text: dated)], "\(dated)")
        }
    }

    @Test("A line with an impossible date is reported, its digits never measured, and it dates nothing after it")
    func impossibleDates() {
        let written = ["2023-02-30", "2/30", "2023-13-01", "2023년 2월 30일", "2월 30일", "4/31", "2023-04-31",
                       "2023-02-29", "1899-05-01", "9999-12-31", "0000-01-01", "Feb 30", "31 April 2023", "2/30/2023"]
        for date in written {
            let line = date + " 체중 51g"
            #expect(F.parse("2023-04-30 fed\n" + line + "\nshed")
                == [F.entry(1, "2023-04-30", nil, "fed", text: "2023-04-30 fed"),
                    F.problem(2, "impossible date '\(date)': no such day"),
                    F.problem(3, "under the impossible date '\(date)' of line 2")], "\(line)")
        }
        #expect(F.parse("2023-04-30 fed\n2023-02-30\n체중 51g\n2023-05-01\nshed")
            == [F.entry(1, "2023-04-30", nil, "fed", text: "2023-04-30 fed"),
                F.problem(2, "impossible date '2023-02-30': no such day"),
                F.problem(3, "under the impossible date '2023-02-30' of line 2"),
                F.entry(5, "2023-05-01", nil, "shed", text: "shed")])
    }

    @Test("Numbers that were never written as a date stay text: 0/5, 5/40, 3 digits, a leap day in a leap year")
    func numbersThatAreNoDates() {
        for line in ["0/5 fed", "5/40 crickets", "123/4 fed", "2023-5 fed"] {
            #expect(afterStart(line) == startThen(F.entry(2, "2023-04-30", nil, line, text: line)), "\(line)")
        }
        #expect(F.parse("2024-02-29 fed") == [F.entry(1, "2024-02-29", nil, "fed", text: "2024-02-29 fed")])
        #expect(F.parse("2023-05-07 오후 15:30 fed")
            == [F.entry(1, "2023-05-07", nil, "오후 15:30 fed", text: "2023-05-07 오후 15:30 fed")])
        #expect(F.parse("2023-05-07 24:00 fed") == [F.entry(1, "2023-05-07", nil, "24:00 fed", text: "2023-05-07 24:00 fed")])
    }

    @Test("With day first, 5/3 is 5 March, in every slash and numeric form; year-first forms do not change")
    func dayFirst() {
        let cases: [(line: String, date: String)] = [
            ("5/6 fed", "2023-06-05"),
            ("05/03/2024 fed", "2024-03-05"),
            ("5/3/24 fed", "2024-03-05"),
            ("31/12 fed", "2023-12-31"),
            ("2024/5/3 fed", "2024-05-03"),
            ("24.05.03 fed", "2024-05-03"),
        ]
        for (line, date) in cases {
            #expect(afterStart(line, monthFirst: false) == startThen(F.entry(2, date, nil, "fed", text: line)), "\(line)")
        }
        #expect(afterStart("5/6 fed") == startThen(F.entry(2, "2023-05-06", nil, "fed", text: "5/6 fed")))
        #expect(afterStart("31/12 fed") == startThen(F.problem(2, "impossible date '31/12': no such day (read month first; "
            + "a log written day first needs {\"monthFirst\": false} in config/records.json)")))
        #expect(afterStart("12/31 fed", monthFirst: false)
            == startThen(F.problem(2, "impossible date '12/31': no such day (read day first, as config/records.json says)")))
    }
}
