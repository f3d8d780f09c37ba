/// Why a CSV file could not be read. Every case names the file, and the line where one is known,
/// so the user can open the file at the spot.
public enum CSVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not text Dossier reads; the line reader's reason is kept as it is.
    case text(TextDecodingError)
    /// The file is some other format saved under a CSV name, e.g. a spreadsheet.
    case notCSV(path: String, format: String)
    /// A quoted field opened on `line` is still open at the end of the file.
    case unterminatedQuote(path: String, line: Int)
    /// A quote where a field should already have ended: `"3" "`.
    case strayQuote(path: String, line: Int, field: Int)
    /// Text after the closing quote of a field: `"abc"def`.
    case textAfterQuote(path: String, line: Int, field: Int, text: String)
    /// A row grew past the limit: almost always a quote that is never closed, swallowing the file.
    case rowTooLong(path: String, line: Int, limit: Int)

    public var description: String {
        switch self {
        case .text(let error):
            return error.description
        case .notCSV(let path, let format):
            return "\(path): this is \(format), not CSV text; export it as CSV first"
        case .unterminatedQuote(let path, let line):
            return "\(path):\(line): the quoted field that starts on this line is never closed (a missing \")"
        case .strayQuote(let path, let line, let field):
            return "\(path):\(line): a stray quote after the closed quoted field \(field); quotes inside a field are written \"\""
        case .textAfterQuote(let path, let line, let field, let text):
            return "\(path):\(line): text '\(text)' after the closing quote of field \(field); the quote should end the field"
        case .rowTooLong(let path, let line, let limit):
            return "\(path):\(line): the row that starts on this line runs past \(limit) bytes; is a closing quote missing?"
        }
    }
}
