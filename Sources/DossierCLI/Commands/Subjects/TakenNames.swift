import DossierCore
import Foundation

/// The names other subjects answer to (ids, names, aliases), which `subjects add` and `subjects
/// edit` refuse to give a subject: a log line naming one could be filed under neither.
struct TakenNames {
    /// Every other subject, by the key its names are compared with.
    let owners: [String: Subject]

    init(byOthersThan subject: Subject, in layout: LibraryLayout) {
        var owners: [String: Subject] = [:]
        for (other, known) in layout.subjectNames() where other != subject {
            for name in known { owners[TakenNames.key(name)] = other }
        }
        self.owners = owners
    }

    /// Throws for the first of `names` another subject already answers to.
    func refuse(_ names: [String]) throws {
        for name in names {
            if let other = owners[TakenNames.key(name)] {
                throw NameTaken(description: "'\(name)' is already a name of \(other.path): lines naming it could be filed under neither")
            }
        }
    }

    /// Names compare as the logs' names do: case folded, in one Unicode normal form.
    static func key(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping.lowercased().trimmingCharacters(in: .whitespaces)
    }

    struct NameTaken: Error, CustomStringConvertible {
        let description: String
    }
}
