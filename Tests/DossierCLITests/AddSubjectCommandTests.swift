import Foundation
import DossierTestSupport
import Testing

/// `dossier subjects add`: a new subject may not answer to a name another already does.
@Suite("subjects add")
struct AddSubjectCommandTests {
    @Test("A name, an alias or an id another subject already answers to is refused, as subjects edit refuses it")
    func takenNamesAreRefused() throws {
        let folder = try TemporaryFolder()
        func run(_ arguments: [String]) throws -> DossierBinary.Result {
            try DossierBinary.run(["subjects", "add"] + arguments + ["--library", "Library"], in: folder.url)
        }
        #expect(try run(["pets/leo", "--name", "레오", "--alias", "Leo"]).status == 0)

        let name = try run(["pets/rex", "--name", "LEO"])
        #expect(name.status == 1)
        #expect(name.standardError == "dossier: 'LEO' is already a name of pets/leo: lines naming it could be filed under neither\n")
        let alias = try run(["pets/rex", "--name", "Rex", "--alias", "레오"])
        #expect(alias.status == 1)
        #expect(alias.standardError == "dossier: '레오' is already a name of pets/leo: lines naming it could be filed under neither\n")
        let id = try run(["children/leo", "--name", "리오"])
        #expect(id.status == 1)
        #expect(id.standardError == "dossier: 'leo' is already a name of pets/leo: lines naming it could be filed under neither\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/pets/rex")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/children/leo")))

        let edit = try DossierBinary.run(["subjects", "edit", "pets/leo", "--add-alias", "Rex", "--library", "Library"], in: folder.url)
        #expect(edit.status == 0, "\(edit.standardError)")
        let taken = try run(["pets/rex", "--name", "Rex"])
        #expect(taken.standardError == "dossier: 'Rex' is already a name of pets/leo: lines naming it could be filed under neither\n")
        #expect(try run(["pets/trex", "--name", "Rexy", "--alias", "T-Rex"]).status == 0)
    }
}
