/// Follows a table's rows in order to tell where a new table starts (`CSVSectionStart`): a
/// header counts only after a blank line or a marker, and a marker only once a header follows it.
struct CSVSectionBreaks {
    /// The row before the one being looked at (kept whole: its end line is only worked out when
    /// the next row has no date, which is seldom).
    private var previous: CSVRow?
    private var previousLine: Int
    /// The marker just met, waiting for its header.
    private(set) var pendingMarker: (name: String, row: CSVRow)?

    init(headerLine: Int) {
        previousLine = headerLine
    }

    /// What `row` starts, if anything; `dated` rows start nothing. A marker's row is held until
    /// the next row says whether it was one (`takeMarker`, `abandonedMarker`).
    mutating func start(of row: CSVRow, dated: Bool) -> CSVSectionStart? {
        defer { previous = row }
        guard !dated else { return nil }
        let lastLine = previous?.lastLine ?? previousLine
        let afterBreak = pendingMarker != nil || row.line > lastLine + 1
        let start = CSVSectionStart(row: row, afterBreak: afterBreak)
        if case .marker(let name)? = start { pendingMarker = (name, row) }
        return start
    }

    /// The waiting marker's name, once its header has come.
    mutating func takeMarker() -> String? {
        defer { pendingMarker = nil }
        return pendingMarker?.name
    }

    /// A marker no header followed (`[Vet said: stop formula]` in a table): the row, to report
    /// as a row with no date.
    mutating func abandonedMarker() -> CSVRow? {
        defer { pendingMarker = nil }
        return pendingMarker?.row
    }
}
