/// Why a text file could not be read: never guessed at, never read as mojibake.
public enum TextDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// The file is in none of the encodings Dossier reads.
    case unknownEncoding(path: String, reason: String)
    /// A line does not decode in the encoding the file started in.
    case invalidLine(path: String, line: Int, encoding: TextEncoding)
    /// A line longer than `LineReader.maximumLineBytes`, where the reader cannot skip it.
    case lineTooLong(path: String, line: Int, bytes: Int)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): cannot read the file: \(reason)"
        case .unknownEncoding(let path, let reason):
            return "\(path): not text in UTF-8, UTF-16 (with a byte-order mark) or CP949: \(reason)"
        case .invalidLine(let path, let line, let encoding):
            let before = line > 1 ? ", the encoding of the lines before it" : ""
            return "\(path):\(line): this line is not valid \(encoding.rawValue)\(before)"
        case .lineTooLong(let path, let line, let bytes):
            return "\(path):\(line): \(LineReader.overlongReason(bytes: bytes))"
        }
    }
}
