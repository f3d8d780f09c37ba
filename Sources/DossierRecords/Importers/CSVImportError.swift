/// Why a CSV file as a whole cannot be imported.
public enum CSVImportError: Error, Equatable, Sendable, CustomStringConvertible {
    case noDateColumn(header: [String])

    public var description: String {
        switch self {
        case .noDateColumn(let header):
            return "no date column: the header has \(header.map { "'\($0)'" }.joined(separator: ", ")), "
                + "and a record needs a date (date, 날짜, 일시, timestamp...)"
        }
    }
}
