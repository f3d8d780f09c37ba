import ArgumentParser
import DossierCore
import DossierRecords

/// `dossier subjects list`: every pet and child, one line each.
struct ListSubjectsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the pets and children of a library.")

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(help: "Print each subject's profile as one JSON object per line.")
    var json = false

    func run() throws {
        try CommandSupport.requireLibrary(libraryOptions.layout)
        let all = ProfileStore(layout: libraryOptions.layout).allProfiles()
        try CommandSupport.withLibraryError {
            for (subject, profile) in all.profiles {
                if json {
                    StandardStreams.writeOut(try CommandSupport.json(profile ?? SubjectProfile(subject: subject, name: "")) + "\n")
                } else {
                    StandardStreams.writeOut(ListSubjectsCommand.line(subject, profile))
                }
            }
        }
        try CommandSupport.sayUnreadable(all.unreadable)
    }

    static func line(_ subject: Subject, _ profile: SubjectProfile?) -> String {
        guard let profile else { return "\(subject.path)  (no profile)\n" }
        var parts = [subject.path, profile.name]
        if !profile.aliases.isEmpty { parts.append("(\(profile.aliases.joined(separator: ", ")))") }
        if let born = profile.born { parts.append("born \(born.iso8601)") }
        if let species = profile.species { parts.append(species + (profile.morph.map { " \($0)" } ?? "")) }
        if let sex = profile.sex { parts.append(sex.rawValue) }
        return parts.joined(separator: "  ") + "\n"
    }
}
