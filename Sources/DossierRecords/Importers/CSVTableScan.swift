import DossierCore

/// Decides, for each date or time column of a CSV table, the order its year-last dates are read
/// in, from every value of the column; and checks each role found by the first rows' values (a
/// `Datum` of dates, a column of names) against every value. The table is read once more, ahead
/// of the rows being filed, when its first rows show dates whose order is a question or a role
/// was found by values (ISO dates under a `Date` header need no pass).
///
/// One reader goes through the file ahead of the import, only ever forward: a file of many
/// tables (sections) is read twice in all, not once more for each table.
final class CSVTableScan {
    private let path: String
    private let dialect: CSVDialect
    // One thread at a time, on every record's way: no run-time exclusivity checks (docs/performance.md).
    @exclusivity(unchecked) private var reader: CSVReader?
    /// A row the reader gave that belongs to a later table than the one asked about.
    @exclusivity(unchecked) private var heldRow: CSVRow?

    init(path: String, dialect: CSVDialect) {
        self.path = path
        self.dialect = dialect
    }

    /// What reading a whole table found: each date column's order, and the columns whose role
    /// was found by the first rows' values but that fewer than four in five of all their values
    /// bear out (by index: how many of how many did).
    struct Findings {
        var orders: [Int: CSVDateOrderDecision] = [:]
        var rolesNotBorneOut: [Int: (matching: Int, values: Int)] = [:]
    }

    /// The findings for the table under the header on `headerLine` (its rows up to the next
    /// table's header); nothing to find when its first rows hold no year-last date and no role
    /// was found by values.
    func decide(columns: CSVColumns, firstRows: [CSVRow], monthFirst: Bool, headerLine: Int) throws -> Findings {
        let dateColumns = columns.dateColumns
        // A unit column or a subject's column that the whole table does not bear out would change
        // every row's numbers without a word. A date or subject column found by values stays:
        // each of its cells that is no date or no name is that row's own problem, and seen.
        let byValues = columns.columns.filter { column in
            guard column.foundByValues else { return false }
            if case .series = column.role { return true }
            return column.role == .unit
        }
        let yearLast = !dateColumns.isEmpty && firstRows.contains { row in
            dateColumns.contains { CSVTableScan.yearLastPair(in: row, column: $0.index) != nil }
        }
        guard yearLast || !byValues.isEmpty else { return Findings() }
        var tallies = Array(repeating: (matching: 0, values: 0), count: byValues.count)
        var scans = Array(repeating: CSVDateOrderScan(), count: dateColumns.count)
        if reader == nil { reader = try CSVReader(path: path, dialect: dialect) }
        var breaks = CSVSectionBreaks(headerLine: headerLine)
        while let row = try heldRow ?? reader!.next() {
            heldRow = nil
            guard row.line > headerLine else { continue }
            var dated = false
            for (position, column) in dateColumns.enumerated() where yearLast {
                guard let pair = CSVTableScan.yearLastPair(in: row, column: column.index) else { continue }
                dated = true
                scans[position].add(pair) { row.field(column.index).trimmedWhitespace }
            }
            for (position, column) in byValues.enumerated() where column.index < row.count {
                let cell = row.field(column.index).trimmedWhitespace
                guard !cell.isEmpty else { continue }
                tallies[position].values += 1
                if CSVTableScan.bearsOut(column.role, cell) { tallies[position].matching += 1 }
            }
            // The next table's rows are its own: kept for when it is asked about.
            if breaks.start(of: row, dated: dated) == .header {
                heldRow = row
                break
            }
        }
        var findings = Findings()
        for (position, column) in dateColumns.enumerated() where yearLast {
            findings.orders[column.index] = scans[position].decision(monthFirst: monthFirst)
        }
        for (position, column) in byValues.enumerated() where tallies[position].matching * 5 < tallies[position].values * 4 {
            findings.rolesNotBorneOut[column.index] = tallies[position]
        }
        return findings
    }

    /// Whether a cell is what its column was taken to hold.
    private static func bearsOut(_ role: CSVColumnRole, _ cell: String) -> Bool {
        switch role {
        case .unit: return CSVHeaderVocabulary.key(cell).count > 1 && CSVHeaderVocabulary.isUnit(cell)
        case .series: return CSVNumber.parse(cell, decimalComma: false) != nil || CSVNumber.parse(cell, decimalComma: true) != nil
            || CSVHeaderVocabulary.isUnit(cell.filter { !$0.isNumber && $0 != "." && $0 != "," && $0 != " " })
        default: return true
        }
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
