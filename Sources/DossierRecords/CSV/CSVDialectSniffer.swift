/// Tells a file's dialect from its first lines, as a person would: the delimiter is the one that
/// splits the lines, outside quotes, into as many fields as the header has, or fewer: exports
/// leave out empty trailing fields (a baby tracker's Note, written on one row in ten). Counting
/// only rows of one width chose `:` for such a file, whose every row had one colon in its
/// quoted time (`"1/13/26, 15:58"`), and the file was not read as CSV at all.
enum CSVDialectSniffer {
    /// Enough lines to see a header and some rows; a sample is held whole, so it is bounded.
    static let sampleLines = 64
    static let sampleBytes = 1 << 16

    private struct SampleRow {
        let fieldCount: Int
        let startsWithHash: Bool
    }

    private struct Candidate {
        let dialect: CSVDialect
        let order: Int
        let consistency: Double
        let consistentRows: Int
        /// The header's width: the first row of two or more fields.
        let width: Int

        func isBetter(than other: Candidate) -> Bool {
            if consistency != other.consistency { return consistency > other.consistency }
            if consistentRows != other.consistentRows { return consistentRows > other.consistentRows }
            if order != other.order { return order < other.order }
            return dialect.quoteEscape == .doubled && other.dialect.quoteEscape != .doubled
        }
    }

    static func sniff(_ lines: [TextLine]) -> CSVDialect {
        // Backslash escapes are only worth trying where the sample has one.
        let escapes: [CSVDialect.QuoteEscape] = lines.contains { $0.text.contains("\\\"") } ? [.doubled, .backslash] : [.doubled]
        var best: (candidate: Candidate, rows: [SampleRow])?
        for (order, delimiter) in CSVDialect.candidateDelimiters.enumerated() {
            for escape in escapes {
                let dialect = CSVDialect(delimiter: delimiter, quoteEscape: escape)
                let (rows, failures) = split(lines, dialect)
                guard let width = rows.prefix(3).first(where: { $0.fieldCount >= 2 })?.fieldCount else { continue }
                let consistent = rows.filter { (2...width).contains($0.fieldCount) }.count
                let candidate = Candidate(dialect: dialect, order: order,
                                          consistency: Double(consistent) / Double(rows.count + failures),
                                          consistentRows: consistent, width: width)
                if best.map({ candidate.isBetter(than: $0.candidate) }) ?? true { best = (candidate, rows) }
            }
        }
        guard let best else { return CSVDialect() }
        // `#` lines are comments only where one does not fit the table: a row may start with `#`.
        let hasComments = best.rows.contains { $0.startsWithHash && !(2...best.candidate.width).contains($0.fieldCount) }
        return CSVDialect(delimiter: best.candidate.dialect.delimiter, quoteEscape: best.candidate.dialect.quoteEscape,
                          commentPrefix: hasComments ? "#" : nil)
    }

    /// The field counts of the rows the sample holds whole, and how many rows did not parse.
    private static func split(_ lines: [TextLine], _ dialect: CSVDialect) -> ([SampleRow], Int) {
        var parser = CSVRowParser(dialect: dialect)
        var rows: [SampleRow] = []
        var failures = 0
        var rowStart: TextLine?
        for line in lines {
            if rowStart == nil {
                if line.text.isEmpty { continue }
                rowStart = line
            }
            do {
                if try parser.feed(line.text) {
                    rows.append(SampleRow(fieldCount: parser.takeFields().count, startsWithHash: rowStart!.text.hasPrefix("#")))
                    rowStart = nil
                } else {
                    parser.feedLineBreak(line.terminator)
                }
            } catch {
                failures += 1
                parser.reset()
                rowStart = nil
            }
        }
        return (rows, failures)
    }
}
