import DossierCore

/// One thing to celebrate on a day.
public struct Anniversary: Equatable, Sendable {
    public let kind: AnniversaryKind
    /// The day it is celebrated (28 February for a 29 February birth in a common year).
    public let date: RecordDate
    /// Which one: 3 for a 3rd birthday or hatch day, 1 for the first birthday; nil for the
    /// 100th day, which has no count.
    public let number: Int?

    public init(kind: AnniversaryKind, date: RecordDate, number: Int?) {
        self.kind = kind
        self.date = date
        self.number = number
    }
}
