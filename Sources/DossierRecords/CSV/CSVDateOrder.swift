/// Which of a year-last date's first two numbers is the month: `09/01/2024` is 1 September
/// month-first (as US apps write it) and 9 January day-first (as most of the world does).
public enum CSVDateOrder: Sendable, Equatable {
    case monthFirst
    case dayFirst

    /// As the reading line shows it.
    public var pattern: String {
        switch self {
        case .monthFirst: return "M/D/Y"
        case .dayFirst: return "D/M/Y"
        }
    }

    /// The order `config/records.json`'s `monthFirst` names.
    public init(monthFirst: Bool) {
        self = monthFirst ? .monthFirst : .dayFirst
    }
}
