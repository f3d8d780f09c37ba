import DossierCore
import Testing
@testable import DossierRecords

@Suite("Notepad: lines that continue an entry")
struct NotepadContinuationTests {
    typealias F = NotepadFixtures

    @Test("A dateless line under a named entry goes on with that entry's day and subject")
    func continuationsKeepTheSubject() {
        let events = F.parse("2023.05.01 레오 귀뚜라미 5마리\n  물그릇도 갈아줌\n2023.05.02 코코 탈피\n꼬리 끝이 남음")
        #expect(events == [
            F.entry(1, "2023-05-01", F.leo, "귀뚜라미 5마리", text: "2023.05.01 레오 귀뚜라미 5마리"),
            F.entry(2, "2023-05-01", F.leo, "물그릇도 갈아줌", text: "물그릇도 갈아줌"),
            F.entry(3, "2023-05-02", F.coco, "탈피", text: "2023.05.02 코코 탈피"),
            F.entry(4, "2023-05-02", F.coco, "꼬리 끝이 남음", text: "꼬리 끝이 남음"),
        ])
    }

    @Test("Lines under a date header do not take the subject of the line before them")
    func sectionLinesStayWithTheFile() {
        let events = F.parse("== 2024-03-02 ==\n[레오] fed 2 pinkies\n- water change")
        #expect(events == [
            F.entry(2, "2024-03-02", F.leo, "fed 2 pinkies", text: "[레오] fed 2 pinkies"),
            F.entry(3, "2024-03-02", nil, "water change", text: "- water change"),
        ])
    }
}

@Suite("Notepad: Korean names with their particles")
struct NotepadParticleTests {
    typealias F = NotepadFixtures

    @Test("A known name followed by a particle (레오는, 코코가) is that subject")
    func namesWithParticles() {
        let events = F.parse("2023.05.01 레오는 귀뚜라미 5마리\n5/2 코코가 탈피")
        #expect(events == [
            F.entry(1, "2023-05-01", F.leo, "귀뚜라미 5마리", text: "2023.05.01 레오는 귀뚜라미 5마리"),
            F.entry(2, "2023-05-02", F.coco, "탈피", text: "5/2 코코가 탈피"),
        ])
    }

    @Test("A word that only looks like a name and a particle is not taken for one")
    func lookalikes() {
        #expect(NotepadNameResolver.stemWithoutParticle("레오는") == "레오")
        #expect(NotepadNameResolver.stemWithoutParticle("leo") == nil)
        #expect(NotepadNameResolver.stemWithoutParticle("는") == nil)
        let events = F.parse("2023.05.01 레오나는 밀웜 3")
        #expect(events.count == 1)
        if case .entry(let entry) = events.first { #expect(entry.subject == nil) }
    }
}
