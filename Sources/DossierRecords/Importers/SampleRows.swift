/// The header of a sample and the rows under it: the first row with two or more fields (a title
/// line above it skipped), then each later line that is a whole row.
struct SampleRows {
    let lines: [String]

    mutating func header() -> [String]? {
        headerAndRows()?.header
    }

    /// The header and the sample's rows below it (a row whose quoted field goes on past its line
    /// is left out: the sample only shows what its columns hold).
    func headerAndRows() -> (header: [String], rows: [[String]])? {
        let textLines = lines.enumerated().map { TextLine(number: $0.offset + 1, text: $0.element, terminator: "\n") }
        let dialect = CSVDialectSniffer.sniff(textLines)
        var parser = CSVRowParser(dialect: dialect)
        func row(_ line: TextLine) -> [String]? {
            parser.reset()
            guard (try? parser.feed(line.text)) == true else { return nil }
            return parser.takeFields()
        }
        for (position, line) in textLines.prefix(3).enumerated() {
            guard let header = row(line), header.count >= 2 else { continue }
            return (header, textLines.dropFirst(position + 1).compactMap(row))
        }
        return nil
    }
}
