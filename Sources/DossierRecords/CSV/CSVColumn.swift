/// One column of a CSV file: where it is, its header as written, and what it was taken to hold.
public struct CSVColumn: Hashable, Sendable {
    /// 0-based position in the row.
    public let index: Int
    public let header: String
    public let role: CSVColumnRole
    /// The role was read from the column's values, not its header (`Datum` holding dates).
    public let foundByValues: Bool

    public init(index: Int, header: String, role: CSVColumnRole, foundByValues: Bool = false) {
        self.index = index
        self.header = header
        self.role = role
        self.foundByValues = foundByValues
    }
}
