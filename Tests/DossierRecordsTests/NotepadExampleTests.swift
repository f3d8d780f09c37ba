import DossierCore
import Testing
@testable import DossierRecords

@Suite("Notepad logs: the examples in the domain notes")
struct NotepadExampleTests {
    typealias F = NotepadFixtures

    @Test("A many-animal log with a name on each line, in four date forms")
    func manyAnimals() {
        let log = """
            2023.05.01 레오 귀뚜라미 5마리
            5/3 레오 탈피 (완탈)
            2023년 5월 7일 (일) 레오 체중 45g
            [코코] 23.05.10 밀웜 10
            """
        #expect(F.parse(log) == [
            F.entry(1, "2023-05-01", F.leo, "귀뚜라미 5마리", text: "2023.05.01 레오 귀뚜라미 5마리"),
            F.entry(2, "2023-05-03", F.leo, "탈피 (완탈)", text: "5/3 레오 탈피 (완탈)"),
            F.entry(3, "2023-05-07", F.leo, "체중 45g", text: "2023년 5월 7일 (일) 레오 체중 45g"),
            F.entry(4, "2023-05-10", F.coco, "밀웜 10", text: "[코코] 23.05.10 밀웜 10"),
        ])
    }

    @Test("A one-animal log in dated sections of bulleted lines leaves the subject to the file")
    func oneAnimalSections() {
        let log = """
            == 2024-03-02 ==
            - fed 2 pinkies
            - water change
            - weight 312 g
            """
        #expect(F.parse(log, fileSubject: F.leo) == [
            F.entry(2, "2024-03-02", nil, "fed 2 pinkies", text: "- fed 2 pinkies"),
            F.entry(3, "2024-03-02", nil, "water change", text: "- water change"),
            F.entry(4, "2024-03-02", nil, "weight 312 g", text: "- weight 312 g"),
        ])
    }

    @Test("Both examples parse alike when the directory knows no names and no words are non-names")
    func withoutVocabulary() {
        var parser = NotepadParser(directory: SubjectDirectory(entries: []), fileSubject: nil,
                                   options: NotepadOptions(fallbackYear: 2020))
        let lines = ["2023.05.01 레오 귀뚜라미 5마리", "[코코] 23.05.10 밀웜 10", "== 2024-03-02 ==", "- fed 2 pinkies"]
        var events: [NotepadEvent] = []
        for (index, text) in lines.enumerated() {
            parser.parse(TextLine(number: index + 1, text: text, terminator: "\n")) { events.append($0) }
        }
        #expect(events == [
            F.entry(1, "2023-05-01", nil, "레오 귀뚜라미 5마리", text: "2023.05.01 레오 귀뚜라미 5마리"),
            F.problem(2, "unknown name '코코'"),
            F.entry(4, "2024-03-02", nil, "fed 2 pinkies", text: "- fed 2 pinkies"),
        ])
    }
}
