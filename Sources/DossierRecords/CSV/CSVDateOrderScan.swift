/// Looks at every date of one column written with the year last and decides the column's order:
/// a first number over 12 anywhere means day-first, a second over 12 month-first; a column of
/// values that read either way follows the library's setting.
struct CSVDateOrderScan {
    private(set) var yearLastDates = 0
    private var dayFirstOnly = 0
    private var monthFirstOnly = 0
    private var dayFirstWitness: String?
    private var monthFirstWitness: String?

    /// One cell: `pair` is its first two numbers when it is a year-last date, `cell` its text
    /// (made only when it is the first witness of an order).
    mutating func add(_ pair: CSVTimestamp.YearLastPair, cell: () -> String) {
        yearLastDates += 1
        let firstCanBeMonth = (1...12).contains(pair.first), secondCanBeMonth = (1...12).contains(pair.second)
        if !firstCanBeMonth && secondCanBeMonth {
            dayFirstOnly += 1
            if dayFirstWitness == nil { dayFirstWitness = cell() }
        } else if firstCanBeMonth && !secondCanBeMonth {
            monthFirstOnly += 1
            if monthFirstWitness == nil { monthFirstWitness = cell() }
        }
    }

    /// Nil when the column holds no year-last dates (ISO dates need no order).
    func decision(monthFirst: Bool) -> CSVDateOrderDecision? {
        guard yearLastDates > 0 else { return nil }
        // As many of one as of the other: the library's setting breaks the tie.
        let dayFirstWins = dayFirstOnly > monthFirstOnly || (dayFirstOnly == monthFirstOnly && !monthFirst)
        if let dayFirstWitness, dayFirstWins {
            return CSVDateOrderDecision(order: .dayFirst, basis: .value(dayFirstWitness), contradicting: monthFirstOnly)
        }
        if let monthFirstWitness {
            return CSVDateOrderDecision(order: .monthFirst, basis: .value(monthFirstWitness), contradicting: dayFirstOnly)
        }
        return CSVDateOrderDecision(order: CSVDateOrder(monthFirst: monthFirst), basis: .librarySetting)
    }
}
