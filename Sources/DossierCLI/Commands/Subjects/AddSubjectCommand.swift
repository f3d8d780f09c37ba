import ArgumentParser
import DossierCore
import DossierRecords
import Foundation

/// `dossier subjects add KIND/ID --name NAME ...`: a new subject folder with its profile.
struct AddSubjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a pet or a child: creates <library>/<kind>/<id>/profile.json.",
        discussion: """
            A pet's class, species, subspecies and morph are normalised through the library's species table \
            (Korean, English and Latin names map to one entry). A child's profile gets the fields old diary \
            apps showed: age, zodiac animal, star sign, birthstone, lunar birthday, 100th day, first birthday. \
            A name or alias (or the id) another subject already answers to is refused, as `subjects edit` refuses \
            it: lines naming it could be filed under neither. The fields given here are typed by hand: an import \
            leaves them (and says what it would have written) unless `dossier import --overwrite-profiles`.

            Examples:
              dossier subjects add pets/leo --name 레오 --alias Leo --born 2022-06-01 --sex 수컷 --species 레게 --morph 마크스노우
              dossier subjects add children/mina --name 민아 --alias Mina --born 2024-02-10T14:30 --sex girl
            """)

    @Argument(help: ArgumentHelp("The new subject: pets/<id> or children/<id>.", valueName: "kind/id"))
    var subject: String

    @OptionGroup var libraryOptions: LibraryOptions

    @Option(help: "The name it is called by (any script).")
    var name: String

    @Option(name: .customLong("alias"), help: ArgumentHelp("Another name logs may use; repeat for more.", valueName: "name"))
    var aliases: [String] = []

    @OptionGroup var fields: ProfileFieldOptions

    func validate() throws {
        do { _ = try Subject(parsing: subject) } catch { throw ValidationError("\(error)") }
        if name.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--name must not be empty.") }
    }

    func run() throws {
        let layout = libraryOptions.layout
        let subject = try Subject(parsing: self.subject)
        try CommandSupport.withLibraryError {
            let session = try CommandSupport.openLibrary(layout, access: .creatingIfAbsent)
            let store = ProfileStore(layout: layout)
            if try store.profile(of: subject) != nil || layout.existingSubjects().contains(subject) {
                throw ProfileError.alreadyExists(subject.path)
            }
            // Its id is a name it answers to as well, as logs may write it.
            try TakenNames(byOthersThan: subject, in: layout).refuse([name] + aliases + [subject.id.rawValue])
            var profile = SubjectProfile(subject: subject, name: name, aliases: aliases, typed: [.name])
            fields.apply(to: &profile)
            profile = try ProfileNormaliser(layout: layout).normalised(profile, today: RecordDate.today(in: LibraryTimeZone.of(layout)))
            try store.save(profile)
            withExtendedLifetime(session) {}
            StandardStreams.writeOut("Added \(subject.path) (\(profile.name)): \(layout.root.appendingPathComponent(layout.profilePath(for: subject)).path)\n")
        }
    }
}
