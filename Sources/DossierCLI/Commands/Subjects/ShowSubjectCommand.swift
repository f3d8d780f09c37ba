import ArgumentParser
import DossierCore
import DossierRecords

/// `dossier subjects show KIND/ID`: one subject's profile, derived fields and record counts.
struct ShowSubjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a subject's profile.")

    @Argument(help: ArgumentHelp("pets/<id> or children/<id>.", valueName: "kind/id"))
    var subject: String

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(help: "Print the profile as JSON.")
    var json = false

    func run() throws {
        let layout = libraryOptions.layout
        let subject = try CommandSupport.existingSubject(self.subject, in: layout)
        try CommandSupport.withLibraryError {
            let profile = try ProfileStore(layout: layout).profile(of: subject) ?? SubjectProfile(subject: subject, name: "")
            if json {
                StandardStreams.writeOut(try CommandSupport.json(profile) + "\n")
                return
            }
            StandardStreams.writeOut(ShowSubjectCommand.describe(profile))
        }
    }

    static func describe(_ profile: SubjectProfile) -> String {
        var lines = ["\(profile.subject.path)  \(profile.name)"]
        func add(_ label: String, _ value: String?) { if let value { lines.append("  \(label): \(value)") } }
        add("aliases", profile.aliases.isEmpty ? nil : profile.aliases.joined(separator: ", "))
        add(profile.subject.kind == .pets ? "hatched or born" : "born", profile.born?.iso8601)
        add("sex", profile.sex?.rawValue)
        add("class", profile.animalClass)
        add("species", profile.species)
        add("subspecies", profile.subspecies)
        add("morph or locality", profile.morph)
        add("notes", profile.notes)
        if let derived = profile.derived {
            add("age", "\(derived.ageInYears) (on \(derived.asOf.iso8601))")
            add("zodiac animal", "\(derived.chineseZodiac.ko) / \(derived.chineseZodiac.en)")
            add("star sign", "\(derived.starSign.ko) / \(derived.starSign.en)")
            add("birthstone", "\(derived.birthstone.ko) / \(derived.birthstone.en)")
            let lunar = derived.lunarBirthday
            add("lunar birthday", "\(lunar.year)-\(lunar.month)-\(lunar.day)\(lunar.isLeapMonth ? " (leap month)" : "")")
            add("100th day", derived.hundredthDay.iso8601)
            add("first birthday", derived.firstBirthday.iso8601)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
