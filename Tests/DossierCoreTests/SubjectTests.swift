import Testing
@testable import DossierCore

@Suite("Subjects and their ids")
struct SubjectTests {
    @Test("Ids of lowercase letters, digits, dashes and underscores are accepted",
          arguments: ["leo", "coco-2", "a", "mina_2024", String(repeating: "x", count: 64)])
    func acceptsValidIDs(_ id: String) throws {
        #expect(try SubjectID(id).rawValue == id)
    }

    @Test("Ids that could leave the library or are not plain are refused with the rule",
          arguments: ["", ".", "..", "../x", "a/b", "Leo", "leo ", "레오", "le.o", String(repeating: "x", count: 65)])
    func refusesInvalidIDs(_ id: String) {
        #expect(throws: SubjectError.invalidID(id)) { try SubjectID(id) }
        #expect(SubjectError.invalidID(id).description
            == "invalid subject id '\(id)': an id is 1 to 64 characters of lowercase letters, digits, '-' and '_'")
    }

    @Test("A subject reference is KIND/ID")
    func parsesReferences() throws {
        let subject = try Subject(parsing: "children/mina")
        #expect(subject.kind == .children)
        #expect(subject.id.rawValue == "mina")
        #expect(subject.path == "children/mina")
    }

    @Test("A reference with an unknown kind or extra parts is refused, saying what is expected",
          arguments: ["pet/leo", "pets", "pets/leo/photos", "/pets/leo", "pets/"])
    func refusesBadReferences(_ reference: String) {
        #expect(throws: (any Error).self) { try Subject(parsing: reference) }
    }

    @Test("A bad reference's message names both kinds")
    func badReferenceMessage() {
        #expect(SubjectError.invalidReference("pet/leo").description == "invalid subject 'pet/leo': expected KIND/ID "
            + "where KIND is 'pets' or 'children' and ID is 1 to 64 characters of lowercase letters, digits, '-' and '_'")
    }
}
