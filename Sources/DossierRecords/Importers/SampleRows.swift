/// The header of a sample: the first row with two or more fields (a title line above it skipped).
struct SampleRows {
    let lines: [String]

    mutating func header() -> [String]? {
        let textLines = lines.enumerated().map { TextLine(number: $0.offset + 1, text: $0.element, terminator: "\n") }
        let dialect = CSVDialectSniffer.sniff(textLines)
        var parser = CSVRowParser(dialect: dialect)
        for line in textLines.prefix(3) {
            parser.reset()
            guard (try? parser.feed(line.text)) == true else { continue }
            let fields = parser.takeFields()
            if fields.count >= 2 { return fields }
        }
        return nil
    }
}
