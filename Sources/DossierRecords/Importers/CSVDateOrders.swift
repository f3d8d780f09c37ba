import DossierCore

/// Decides, for each date or time column of a CSV file, the order its year-last dates are read
/// in, from every value of the column: the file is read once more, before its first row is
/// filed, when its first rows show dates whose order is a question (ISO dates need no pass).
enum CSVDateOrders {
    /// The decisions by column index; empty when the first rows hold no year-last date. Only
    /// the table under the header on `headerLine` is read: rows after it, up to the next section.
    static func decide(path: String, dialect: CSVDialect, columns: CSVColumns, firstRows: [CSVRow],
                       monthFirst: Bool, headerLine: Int) throws -> [Int: CSVDateOrderDecision] {
        let dateColumns = columns.dateColumns
        guard !dateColumns.isEmpty, firstRows.contains(where: { row in
            dateColumns.contains { yearLastPair(in: row, column: $0.index) != nil }
        }) else { return [:] }
        var scans = Array(repeating: CSVDateOrderScan(), count: dateColumns.count)
        var reader = try CSVReader(path: path, dialect: dialect)
        var breaks = CSVSectionBreaks(headerLine: headerLine)
        while let row = try reader.next() {
            guard row.line > headerLine else { continue }
            var dated = false
            for (position, column) in dateColumns.enumerated() {
                guard let pair = yearLastPair(in: row, column: column.index) else { continue }
                dated = true
                scans[position].add(pair) { row.field(column.index).trimmedWhitespace }
            }
            // The next section's rows are another table's.
            if breaks.start(of: row, dated: dated) == .header { break }
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
