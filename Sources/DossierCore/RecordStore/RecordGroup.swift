import Foundation

/// The records of one subject in one year: one file, `<kind>/<id>/records/<YYYY>.jsonl`.
public struct RecordGroup: Hashable, Comparable, Sendable {
    public let subject: Subject
    public let year: Int
    /// Worked out once, where a record is encoded (on any core): the spill, on its one thread,
    /// looks every record's group up, and hashing the subject's strings there each time cost more
    /// than the lookups themselves.
    private let subjectAndYearHash: Int

    public init(subject: Subject, year: Int) {
        self.subject = subject
        self.year = year
        var hasher = Hasher()
        hasher.combine(subject)
        hasher.combine(year)
        subjectAndYearHash = hasher.finalize()
    }

    public var relativePath: String { "\(subject.path)/records/\(String(format: "%04d", year)).jsonl" }

    /// The subject and year of a year file's path, `pets/leo/records/2024.jsonl`; nil for any
    /// other path.
    public static func parse(relativePath: String) -> (Subject, Int)? {
        let parts = relativePath.split(separator: "/")
        guard parts.count == 4, parts[2] == "records", parts[3].hasSuffix(".jsonl"),
              let year = Int(parts[3].dropLast(6)),
              let subject = try? Subject(parsing: "\(parts[0])/\(parts[1])")
        else { return nil }
        return (subject, year)
    }

    public static func == (lhs: RecordGroup, rhs: RecordGroup) -> Bool {
        lhs.subjectAndYearHash == rhs.subjectAndYearHash && lhs.year == rhs.year && lhs.subject == rhs.subject
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(subjectAndYearHash)
    }

    public static func < (lhs: RecordGroup, rhs: RecordGroup) -> Bool {
        (lhs.subject, lhs.year) < (rhs.subject, rhs.year)
    }
}
