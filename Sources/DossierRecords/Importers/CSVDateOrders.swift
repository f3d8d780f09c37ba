import DossierCore

/// Decides, for each date or time column of a CSV table, the order its year-last dates are read
/// in, from every value of the column: the table is read once more, ahead of the rows being
/// filed, when its first rows show dates whose order is a question (ISO dates need no pass).
///
/// One reader goes through the file ahead of the import, only ever forward: a file of many
/// tables (sections) is read twice in all, not once more for each table.
final class CSVDateOrders {
    private let path: String
    private let dialect: CSVDialect
    private var reader: CSVReader?
    /// A row the reader gave that belongs to a later table than the one asked about.
    private var heldRow: CSVRow?

    init(path: String, dialect: CSVDialect) {
        self.path = path
        self.dialect = dialect
    }

    /// The decisions by column index for the table under the header on `headerLine` (its rows
    /// up to the next table's header); empty when its first rows hold no year-last date.
    func decide(columns: CSVColumns, firstRows: [CSVRow], monthFirst: Bool, headerLine: Int) throws -> [Int: CSVDateOrderDecision] {
        let dateColumns = columns.dateColumns
        guard !dateColumns.isEmpty, firstRows.contains(where: { row in
            dateColumns.contains { CSVDateOrders.yearLastPair(in: row, column: $0.index) != nil }
        }) else { return [:] }
        var scans = Array(repeating: CSVDateOrderScan(), count: dateColumns.count)
        if reader == nil { reader = try CSVReader(path: path, dialect: dialect) }
        var breaks = CSVSectionBreaks(headerLine: headerLine)
        while let row = try heldRow ?? reader!.next() {
            heldRow = nil
            guard row.line > headerLine else { continue }
            var dated = false
            for (position, column) in dateColumns.enumerated() {
                guard let pair = CSVDateOrders.yearLastPair(in: row, column: column.index) else { continue }
                dated = true
                scans[position].add(pair) { row.field(column.index).trimmedWhitespace }
            }
            // The next table's rows are its own: kept for when it is asked about.
            if breaks.start(of: row, dated: dated) == .header {
                heldRow = row
                break
            }
        }
        var decisions: [Int: CSVDateOrderDecision] = [:]
        for (position, column) in dateColumns.enumerated() {
            decisions[column.index] = scans[position].decision(monthFirst: monthFirst)
        }
        return decisions
    }

    /// The cell's first two numbers when it is a date written with the year last.
    static func yearLastPair(in row: CSVRow, column: Int) -> CSVTimestamp.YearLastPair? {
        guard column < row.count else { return nil }
        return row.bytes.withUnsafeBufferPointer { bytes in
            let cell = UnsafeBufferPointer(rebasing: bytes[row.range(of: column)]).trimmedWhitespace
            guard !cell.isEmpty else { return nil }
            return CSVTimestamp.parse(cell)?.yearLastPair
        }
    }
}
