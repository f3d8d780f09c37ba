/// The order one column's year-last dates are read in, and why: every row of the column is
/// looked at before the first is read, so one column never mixes orders.
public struct CSVDateOrderDecision: Sendable, Equatable {
    public enum Basis: Sendable, Equatable {
        /// A value only this order reads (`24/01/2024` is day-first).
        case value(String)
        /// Every value reads either way (`09/01/2024`, `03/04/2024`): the library's `monthFirst`
        /// decides, and the reading line says so.
        case librarySetting
    }

    public let order: CSVDateOrder
    public let basis: Basis
    /// Values only the other order reads: with both kinds in one column, the order more values
    /// show wins and the others are problems, never read the other way.
    public let contradicting: Int

    public init(order: CSVDateOrder, basis: Basis, contradicting: Int = 0) {
        self.order = order
        self.basis = basis
        self.contradicting = contradicting
    }

    /// `D/M/Y (from 24/01/2024)`, `M/D/Y (every date reads either way: the library's monthFirst is true)`.
    public var description: String {
        "\(order.pattern) (\(reason))"
    }

    /// Why, without the order: `from 24/01/2024`.
    public var reason: String {
        var text: String
        switch basis {
        case .value(let value): text = "from \(value)"
        case .librarySetting: text = "every date reads either way: the library's monthFirst is \(order == .monthFirst)"
        }
        if contradicting > 0 {
            text += "; \(contradicting) \(contradicting == 1 ? "date reads" : "dates read") only the other way: problems"
        }
        return text
    }
}
