import DossierCore
import Testing
@testable import DossierRecords

@Suite("Notepad subject directory: names, normalisation and suggestions")
struct NotepadDirectoryTests {
    typealias F = NotepadFixtures

    @Test("Names match exactly, ignoring case and Unicode normalisation (decomposed Hangul from a Mac)")
    func exactMatches() {
        let directory = F.directory
        #expect(directory.subject(named: "레오") == F.leo)
        #expect(directory.subject(named: "\u{1105}\u{1166}\u{110B}\u{1169}") == F.leo)
        #expect(directory.subject(named: "LEO") == F.leo)
        #expect(directory.subject(named: "big red") == F.bigRed)
        #expect(directory.subject(named: " Big  Red ") == F.bigRed)
        #expect(directory.subject(named: "Le") == nil)
        #expect(directory.subject(named: "레오야") == nil)
        #expect(directory.subject(named: "") == nil)
        let accented = SubjectDirectory(entries: [(F.coco, ["Zoë"])])
        #expect(accented.subject(named: "zoe\u{308}") == F.coco)
        #expect(accented.subject(named: "ZOË") == F.coco)
    }

    @Test("A name two subjects share finds neither; one subject's repeated spellings stay its own")
    func sharedNames() {
        let directory = SubjectDirectory(entries: [(F.leo, ["leo", "Leo", "LEO", "토리"]), (F.coco, ["coco", "토리"])])
        #expect(directory.subject(named: "leo") == F.leo)
        #expect(directory.subject(named: "토리") == nil)
        #expect(directory.isEmpty == false)
        #expect(SubjectDirectory(entries: []).isEmpty)
        #expect(SubjectDirectory(entries: [(F.leo, ["", "  "])]).isEmpty)
    }

    @Test("Suggestions are close names only, nearest first, Hangul compared by jamo")
    func suggestions() {
        let directory = SubjectDirectory(entries: [
            (F.leo, ["leo", "레오"]), (F.coco, ["coco", "코코", "Coconut"]), (F.mina, ["mina", "민아", "레아"]),
        ])
        #expect(directory.suggestions(for: "레우") == ["레오", "레아"])
        #expect(directory.suggestions(for: "레오") == ["레오", "레아"])
        #expect(directory.suggestions(for: "코고") == ["코코"])
        #expect(directory.suggestions(for: "Loe") == ["leo"])
        #expect(directory.suggestions(for: "Cocoa") == ["coco"])
        #expect(directory.suggestions(for: "cocnut") == ["Coconut"])
        #expect(directory.suggestions(for: "Mona") == ["mina"])
        #expect(directory.suggestions(for: "Rex") == [])
        #expect(directory.suggestions(for: "강아지") == [])
        #expect(directory.suggestions(for: "레우", limit: 1) == ["레오"])
        #expect(directory.suggestions(for: "") == [])
    }
}
