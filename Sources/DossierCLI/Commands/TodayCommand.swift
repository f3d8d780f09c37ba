import ArgumentParser
import DossierCore
import DossierRecords

/// `dossier today`: whose birthday, hatch day, 100th day or first birthday it is.
struct TodayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "List the subjects with a birthday, hatch day, 100th day or first birthday today (or on --date).")

    @OptionGroup var libraryOptions: LibraryOptions

    @Option(help: ArgumentHelp("The day to look at instead of today (YYYY-MM-DD, \(CommandSupport.dateYears)).",
                               valueName: "date"))
    var date: String?

    @Flag(help: "One JSON object per anniversary.")
    var json = false

    func validate() throws {
        if let date { _ = try CommandSupport.day(date, option: "--date") }
    }

    func run() throws {
        try CommandSupport.requireLibrary(libraryOptions.layout)
        let all = ProfileStore(layout: libraryOptions.layout).allProfiles()
        try CommandSupport.withLibraryError {
            let day = try date.map { try CommandSupport.day($0, option: "--date") }
                ?? RecordDate.today(in: LibraryTimeZone.of(libraryOptions.layout))
            for (subject, profile) in all.profiles {
                guard let profile, let born = profile.born else { continue }
                for anniversary in Anniversaries.on(day, born: born, isChild: subject.kind == .children) {
                    StandardStreams.writeOut(json ? try TodayCommand.json(anniversary, profile) : TodayCommand.line(anniversary, profile))
                }
            }
        }
        try CommandSupport.sayUnreadable(all.unreadable)
    }

    struct Line: Encodable {
        let subject: String
        let name: String
        let kind: String
        let date: String
        let number: Int?
    }

    static func json(_ anniversary: Anniversary, _ profile: SubjectProfile) throws -> String {
        try CommandSupport.json(Line(subject: profile.subject.path, name: profile.name, kind: anniversary.kind.rawValue,
                                     date: anniversary.date.iso8601, number: anniversary.number)) + "\n"
    }

    static func line(_ anniversary: Anniversary, _ profile: SubjectProfile) -> String {
        let what: String
        switch anniversary.kind {
        case .birthday: what = "birthday" + (anniversary.number.map { " (\(ordinal($0)))" } ?? "")
        case .hatchDay: what = "hatch day" + (anniversary.number.map { " (\(ordinal($0)))" } ?? "")
        case .hundredthDay: what = "100th day (백일)"
        case .firstBirthday: what = "first birthday (돌)"
        }
        return "\(profile.subject.path)  \(profile.name): \(what)\n"
    }

    static func ordinal(_ number: Int) -> String {
        let suffix = (11...13).contains(number % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][number % 10] ?? "th"
        return "\(number)\(suffix)"
    }
}
