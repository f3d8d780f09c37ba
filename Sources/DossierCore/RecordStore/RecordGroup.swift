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
