import DossierRecords

/// The words for an anniversary, as `dossier today` says them.
enum GreetingText {
    static func of(_ anniversary: Anniversary) -> String {
        switch anniversary.kind {
        case .birthday: return "birthday" + (anniversary.number.map { " (\(ordinal($0)))" } ?? "")
        case .hatchDay: return "hatch day" + (anniversary.number.map { " (\(ordinal($0)))" } ?? "")
        case .hundredthDay: return "100th day (백일)"
        case .firstBirthday: return "first birthday (돌)"
        }
    }

    static func ordinal(_ number: Int) -> String {
        let suffix = (11...13).contains(number % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][number % 10] ?? "th"
        return "\(number)\(suffix)"
    }
}
