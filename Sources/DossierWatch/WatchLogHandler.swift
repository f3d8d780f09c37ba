import DossierCore
import Foundation
import Logging
import Synchronization

/// The daemon's log: one line per event on standard error, as text for a person reading a
/// terminal or journalctl, or as one JSON object for a collector. The message is the event, one
/// of `WatchEvent`'s (`filed`, `duplicate`, `quarantined`, `stuck`, `library-gone`, ...), the
/// metadata its fields, which `WatchEvent` lists; counts are JSON numbers.
///
///     2026-11-25T10:31:02.114Z info filed source=/inbox/pets/leo/IMG_1.jpg subject=pets/leo destination=...
///     {"destination":"...","event":"filed","level":"info","source":"...","subject":"pets/leo","time":"..."}
public struct WatchLogHandler: LogHandler {
    public enum Format: String, Sendable, CaseIterable {
        case text
        case json
    }

    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    let format: Format
    /// Where lines go (standard error, or a test's buffer); called for whole lines, one at a time.
    let write: @Sendable (String) -> Void

    private static let lines = Mutex(())

    public init(format: Format, write: @escaping @Sendable (String) -> Void = WatchLogHandler.standardError) {
        self.format = format
        self.write = write
    }

    public static let standardError: @Sendable (String) -> Void = { line in
        lines.withLock { _ in
            let bytes = Array(line.utf8)
            var offset = 0
            while offset < bytes.count {
                let count = bytes[offset...].withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
                if count <= 0 { if errno == EINTR { continue }; return }
                offset += count
            }
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        let time = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
        switch format {
        case .text:
            let rest = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\(WatchLogHandler.quoted(WatchLogHandler.textValue($0.value)))" }
            write(([time, "\(event.level)", "\(event.message)"] + rest).joined(separator: " ") + "\n")
        case .json:
            var object: [String: Any] = fields.mapValues(WatchLogHandler.jsonValue)
            object["time"] = time
            object["level"] = "\(event.level)"
            object["event"] = "\(event.message)"
            // Every value is a string, a number, a flag or an array of strings: serialisation cannot fail.
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
                ?? Data("{}".utf8)
            write(String(decoding: data, as: UTF8.self) + "\n")
        }
    }

    /// A field as JSON: a count as a number (`"found":3`), a flag as one (`"damaged":true`), a
    /// list (a source's problems) as an array, everything else as a string.
    static func jsonValue(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case .stringConvertible(let convertible):
            if let number = convertible as? Int { return number }
            if let flag = convertible as? Bool { return flag }
            if let number = convertible as? Double, number.isFinite { return number }
        case .array(let values):
            return values.map(jsonValue)
        default:
            break
        }
        return "\(value)"
    }

    /// A field as text: a list is its items joined by `; ` (each a problem that names its line).
    static func textValue(_ value: Logger.MetadataValue) -> String {
        if case .array(let values) = value { return values.map(textValue).joined(separator: "; ") }
        return "\(value)"
    }

    /// A value with spaces, quotes, `=` or a control character in it is quoted, so a line still
    /// splits into fields and stays one line: a backslash and a quote inside are escaped with a
    /// backslash, and every control character (C0, DEL, C1, and the bidirectional controls that
    /// make a name read backwards) as `SourcePath.displayed` writes it (`\n`, `\u001B`, `\u202E`),
    /// so no value can steer the terminal or journal that shows the log.
    static func quoted(_ value: String) -> String {
        let shown = SourcePath.displayed(value)
        guard value.isEmpty || shown != value || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) else {
            return value
        }
        // The backslashes are doubled before the control characters become escapes that hold one.
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"" + SourcePath.displayed(escaped) + "\""
    }
}
