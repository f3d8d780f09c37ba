import DossierCore
import Testing
@testable import DossierRecords

@Suite("Notepad lines: subjects named on lines and in headers")
struct NotepadNameTests {
    typealias F = NotepadFixtures

    @Test("A name at the start of a line, in each form, before or after the date, gives the subject")
    func namesOnLines() {
        let cases: [(line: String, date: String, subject: Subject, body: String)] = [
            ("레오: 귀뚜라미 5마리", "2023-05-01", F.leo, "귀뚜라미 5마리"),
            ("레오：귀뚜라미 5마리", "2023-05-01", F.leo, "귀뚜라미 5마리"),
            ("[레오] 귀뚜라미 5마리", "2023-05-01", F.leo, "귀뚜라미 5마리"),
            ("【레오】 귀뚜라미 5마리", "2023-05-01", F.leo, "귀뚜라미 5마리"),
            ("레오 - 귀뚜라미 5마리", "2023-05-01", F.leo, "귀뚜라미 5마리"),
            ("레오 – 귀뚜라미 5마리", "2023-05-01", F.leo, "귀뚜라미 5마리"),
            ("- 레오: 귀뚜라미 5마리", "2023-05-01", F.leo, "귀뚜라미 5마리"),
            ("레오 귀뚜라미 5마리", "2023-05-01", F.leo, "귀뚜라미 5마리"),
            ("[코코] 23.05.10 밀웜 10", "2023-05-10", F.coco, "밀웜 10"),
            ("코코: 2023-05-10 밀웜 10", "2023-05-10", F.coco, "밀웜 10"),
            ("코코 5/10 밀웜 10", "2023-05-10", F.coco, "밀웜 10"),
            ("2023.05.10 레오 귀뚜라미 5마리", "2023-05-10", F.leo, "귀뚜라미 5마리"),
            ("2023-05-10 [레오] fed", "2023-05-10", F.leo, "fed"),
            ("2023-05-10 레오: fed", "2023-05-10", F.leo, "fed"),
            ("2023-05-10: 레오 - fed", "2023-05-10", F.leo, "fed"),
            ("2023-05-10 (수) 14:30 Leo fed", "2023-05-10T14:30", F.leo, "fed"),
            ("2023-05-10 LEO: fed", "2023-05-10", F.leo, "fed"),
            ("2023-05-10 coconut fed", "2023-05-10", F.coco, "fed"),
            ("2023-05-10 Big Red fed", "2023-05-10", F.bigRed, "fed"),
            ("big  red: fed", "2023-05-01", F.bigRed, "fed"),
            ("[Big Red] 2023-05-10 fed", "2023-05-10", F.bigRed, "fed"),
            ("14:30 민아 키 75cm", "2023-05-01T14:30", F.mina, "키 75cm"),
        ]
        for (line, date, subject, body) in cases {
            #expect(F.parse("2023-05-01\n" + line) == [F.entry(2, date, subject, body, text: line)], "\(line)")
        }
    }

    @Test("On a line with white space around it, the text is the line trimmed and the body its end, as written")
    func bodyOfAPaddedLineIsTheEndOfItsText() {
        let cases: [(line: String, text: String, body: String)] = [
            ("  레오: 귀뚜라미 5마리  ", "레오: 귀뚜라미 5마리", "귀뚜라미 5마리"),
            ("\u{3000}\t2023-05-10 [코코] 밀웜 10\u{3000}", "2023-05-10 [코코] 밀웜 10", "밀웜 10"),
            ("\u{FEFF} - 민아 키 75cm\u{00A0}", "- 민아 키 75cm", "키 75cm"),
            ("   fed 2 pinkies ", "fed 2 pinkies", "fed 2 pinkies"),
        ]
        for (line, text, body) in cases {
            let events = F.parse("2023-05-10 [레오]\n" + line)
            guard events.count == 1, case .entry(let entry) = events[0] else {
                Issue.record("\(line): \(events)")
                continue
            }
            #expect(entry.text == text, "\(line)")
            #expect(entry.body == body[...], "\(line)")
            #expect(entry.body.base == text, "\(line)")
            #expect(entry.body.endIndex == entry.text.endIndex, "\(line)")
        }
    }

    @Test("A bare word is a name only if known; non-names never are, in any form")
    func wordsThatAreNoNames() {
        let lines = ["2023-05-10 귀뚜라미 5마리", "2023-05-10 Leon fed", "fed: 2 pinkies", "[탈피] 완탈", "weight - 45g",
                     "Fed: 2 pinkies", "see https://example.com", "http://example.com/leo", "[주간 메모] 온도 28도",
                     "[2] pinkies", "2023-05-10 17 crickets"]
        for line in lines {
            let date = line.hasPrefix("2023-05-10") ? "2023-05-10" : "2023-05-01"
            let body = line.hasPrefix("2023-05-10 ") ? String(line.dropFirst(11)) : line
            #expect(F.parse("2023-05-01\n" + line) == [F.entry(2, date, nil, body, text: line)], "\(line)")
        }
    }

    @Test("An unknown name in brackets or before a colon or dash is reported with suggestions, and gives no entry")
    func unknownNames() {
        let cases: [(line: String, reason: String)] = [
            ("[레우] 23.05.10 밀웜 10", "unknown name '레우' (did you mean 레오?)"),
            ("2023-05-10 레우: 밀웜 10", "unknown name '레우' (did you mean 레오?)"),
            ("레우 - 밀웜 10", "unknown name '레우' (did you mean 레오?)"),
            ("Loe: fed", "unknown name 'Loe' (did you mean leo?)"),
            ("[Cocoa] fed", "unknown name 'Cocoa' (did you mean coco?)"),
            ("Cocon: fed", "unknown name 'Cocon' (did you mean coco or Coconut?)"),
            ("민어: fed", "unknown name '민어' (did you mean 민아?)"),
            ("Zorro: fed", "unknown name 'Zorro'"),
            ("[완탈] 탈피", "unknown name '완탈'"),
        ]
        for (line, reason) in cases {
            #expect(F.parse("2023-05-01\n" + line) == [F.problem(2, reason)], "\(line)")
        }
        let events = F.parse("2023-05-01" + String(repeating: "\n", count: 11) + "레우: 탈피")
        guard events.count == 1, case .problem(let problem) = events[0] else { Issue.record("\(events)"); return }
        #expect(problem.description == "line 12: unknown name '레우' (did you mean 레오?)")
    }

    @Test("A name alone on a line heads the lines under it until the next name header or named date section")
    func nameHeaders() {
        let log = """
            [레오]
            2024-03-01 fed
            - 코코: fed
            코코:
            2024-03-02 fed
            2024-03-03 레오
            - fed
            2024-03-04
            weight 40g
            == Big Red ==
            shed
            """
        #expect(F.parse(log) == [
            F.entry(2, "2024-03-01", F.leo, "fed", text: "2024-03-01 fed"),
            F.entry(3, "2024-03-01", F.coco, "fed", text: "- 코코: fed"),
            F.entry(5, "2024-03-02", F.coco, "fed", text: "2024-03-02 fed"),
            F.entry(7, "2024-03-03", F.leo, "fed", text: "- fed"),
            F.entry(9, "2024-03-04", F.leo, "weight 40g", text: "weight 40g"),
            F.entry(11, "2024-03-04", F.bigRed, "shed", text: "shed"),
        ])
    }

    @Test("Lines under an unknown name header are reported, not filed under the subject before it")
    func unknownHeader() {
        let log = "[레오]\n2024-03-01 fed\n[레우]\nfed\n2024-03-02 코코 fed\n[레오]\nshed"
        #expect(F.parse(log) == [
            F.entry(2, "2024-03-01", F.leo, "fed", text: "2024-03-01 fed"),
            F.problem(3, "unknown name '레우' (did you mean 레오?)"),
            F.problem(4, "under the unknown name '레우' of line 3"),
            F.entry(5, "2024-03-02", F.coco, "fed", text: "2024-03-02 코코 fed"),
            F.entry(7, "2024-03-02", F.leo, "shed", text: "shed"),
        ])
    }

    @Test("A name two subjects share is reported with both, on a line and as a header")
    func sharedNames() {
        let first = F.subject("pets/spike-1")
        let second = F.subject("pets/spike-2")
        let directory = SubjectDirectory(entries: [(first, ["spike-1", "Spike"]), (second, ["spike-2", "spike"])])
        #expect(F.parse("2024-03-01 Spike fed\nSpike:\nfed", directory: directory) == [
            F.problem(1, "name 'Spike' belongs to more than one subject (pets/spike-1, pets/spike-2)"),
            F.problem(2, "name 'Spike' belongs to more than one subject (pets/spike-1, pets/spike-2)"),
            F.problem(3, "under the shared name 'Spike' of line 2"),
        ])
    }

    @Test("With no name anywhere the subject is left to the caller; the file's subject answers to its id")
    func fileSubject() {
        let mango = F.subject("pets/mango")
        let empty = SubjectDirectory(entries: [])
        #expect(F.parse("2024-03-01 fed\n[mango] shed\nMango - fed", directory: empty, fileSubject: mango) == [
            F.entry(1, "2024-03-01", nil, "fed", text: "2024-03-01 fed"),
            F.entry(2, "2024-03-01", mango, "shed", text: "[mango] shed"),
            F.entry(3, "2024-03-01", mango, "fed", text: "Mango - fed"),
        ])
        #expect(F.parse("2024-03-01\n[레오] fed", directory: empty) == [F.problem(2, "unknown name '레오'")])
    }

    @Test("Time-of-day and note words before a colon or dash are text, in a file of one subject or of several")
    func timeOfDayAndNoteWords() {
        let lines = ["메모: 은신처 교체", "아침: 귀뚜라미 2", "저녁 - 밀웜 3", "Morning: fed 2 crickets", "Note - shed today",
                     "[메모] 온도 28도", "Evening: 핑키 1"]
        for line in lines {
            #expect(F.parse("2023-05-01\n" + line) == [F.entry(2, "2023-05-01", nil, line, text: line)], "\(line)")
            #expect(F.parse("2023-05-01\n" + line, fileSubject: F.leo) == [F.entry(2, "2023-05-01", nil, line, text: line)],
                    "\(line)")
        }
    }

    @Test("A subject called like a time of day is still a name")
    func aPetCalledMidnight() {
        let midnight = F.subject("pets/midnight")
        let directory = SubjectDirectory(entries: [(midnight, ["midnight", "Midnight"]), (F.leo, ["leo"])])
        #expect(F.parse("2023-05-01 Midnight: fed", directory: directory)
            == [F.entry(1, "2023-05-01", midnight, "fed", text: "2023-05-01 Midnight: fed")])
    }

    @Test("In a file of one subject an unknown word before a colon is text; known names of others still route")
    func unknownWordsInAOneSubjectFile() {
        #expect(F.parse("2023-05-01\nZorro: fed\nHide - swapped\n코코: 탈피", fileSubject: F.leo) == [
            F.entry(2, "2023-05-01", nil, "Zorro: fed", text: "Zorro: fed"),
            F.entry(3, "2023-05-01", nil, "Hide - swapped", text: "Hide - swapped"),
            F.entry(4, "2023-05-01", F.coco, "탈피", text: "코코: 탈피"),
        ])
        #expect(F.parse("2023-05-01\nZorro: fed") == [F.problem(2, "unknown name 'Zorro'")])
    }
}
