import Foundation

/// The records of one subject in one year: one file, `<kind>/<id>/records/<YYYY>.jsonl`.
public struct RecordGroup: Hashable, Comparable, Sendable {
    public let subject: Subject
    public let year: Int

    public init(subject: Subject, year: Int) {
        self.subject = subject
        self.year = year
    }

    public var relativePath: String { "\(subject.path)/records/\(String(format: "%04d", year)).jsonl" }

    public static func < (lhs: RecordGroup, rhs: RecordGroup) -> Bool {
        (lhs.subject, lhs.year) < (rhs.subject, rhs.year)
    }
}

