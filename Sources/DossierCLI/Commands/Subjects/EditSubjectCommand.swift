import ArgumentParser
import DossierCore
import DossierRecords
import Foundation

/// `dossier subjects edit KIND/ID [--name] [--add-alias] [--remove-alias] ...`: changes a
/// subject's profile. How a typo'd name in the logs (`레우`) becomes an alias, after which
/// `dossier problems retry` files the lines that used it.
struct EditSubjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a pet's or a child's profile: name, aliases, birth date, sex, species...",
        discussion: """
            Only what is given changes. A name or alias another subject already answers to is refused: lines \
            naming it could not be filed under either. A field given here is typed by hand: an import leaves it \
            (and says what it would have written) unless `dossier import --overwrite-profiles`. After adding an alias, `dossier problems retry` files the lines \
            that were not filed for its name.

            Examples:
              dossier subjects edit pets/leo --add-alias 레우
              dossier subjects edit children/mina --born 2024-02-10T14:30 --remove-alias Minah
            """)

    @Argument(help: ArgumentHelp("The subject: pets/<id> or children/<id>.", valueName: "kind/id"))
    var subject: String

    @OptionGroup var libraryOptions: LibraryOptions

    @Option(help: "The name it is called by.")
    var name: String?

    @Option(name: .customLong("add-alias"), help: ArgumentHelp("Another name logs use; repeat for more.", valueName: "name"))
    var addedAliases: [String] = []

    @Option(name: .customLong("remove-alias"), help: ArgumentHelp("An alias to drop; repeat for more.", valueName: "name"))
    var removedAliases: [String] = []

    @OptionGroup var fields: ProfileFieldOptions

    func validate() throws {
        do { _ = try Subject(parsing: subject) } catch { throw ValidationError("\(error)") }
        guard name != nil || fields.givesAny || !addedAliases.isEmpty || !removedAliases.isEmpty else {
            throw ValidationError("nothing to change: give --name, --add-alias, --remove-alias, --born, --sex, --class, "
                + "--species, --subspecies, --morph or --notes.")
        }
        if let name, name.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--name must not be empty.") }
        if addedAliases.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw ValidationError("--add-alias must not be empty.")
        }
    }

    func run() throws {
        let layout = libraryOptions.layout
        let subject = try CommandSupport.existingSubject(self.subject, in: layout)
        try CommandSupport.withLibraryError {
            let session = try CommandSupport.openLibrary(layout)
            let store = ProfileStore(layout: layout)
            // A subject made by filing into its folder has no profile yet: its id is its name.
            var profile = try store.profile(of: subject) ?? SubjectProfile(subject: subject, name: subject.id.rawValue)
            try apply(to: &profile, taken: TakenNames(byOthersThan: subject, in: layout))
            profile = try ProfileNormaliser(layout: layout).normalised(profile, today: RecordDate.today(in: try LibraryTimeZone.of(layout)))
            try store.save(profile)
            withExtendedLifetime(session) {}
            StandardStreams.writeOut(ShowSubjectCommand.describe(profile))
            if name != nil || !addedAliases.isEmpty {
                StandardStreams.writeOut("Lines not filed for an unknown name may now resolve: `dossier problems retry`.\n")
            }
        }
    }

    private func apply(to profile: inout SubjectProfile, taken: TakenNames) throws {
        for alias in removedAliases {
            guard let index = profile.aliases.firstIndex(where: { TakenNames.key($0) == TakenNames.key(alias) }) else {
                let known = profile.aliases.isEmpty ? "it has none" : "its aliases: " + profile.aliases.joined(separator: ", ")
                throw EditError("\(profile.subject.path) has no alias '\(alias)'; \(known)")
            }
            profile.aliases.remove(at: index)
        }
        try taken.refuse([name].compactMap { $0 } + addedAliases)
        if let name {
            profile.name = name.trimmingCharacters(in: .whitespaces)
            profile.typed.insert(.name)
        }
        for alias in addedAliases.map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let taken = ([profile.name, profile.subject.id.rawValue] + profile.aliases).map(TakenNames.key)
            if !taken.contains(TakenNames.key(alias)) { profile.aliases.append(alias) }
        }
        fields.apply(to: &profile)
    }

    struct EditError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
