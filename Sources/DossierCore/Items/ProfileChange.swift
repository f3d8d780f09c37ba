/// What a source did to one subject's profile: the fields it changed (named as `profile.json`
/// names them), and the fields typed by hand that it would have changed but left. Reported per
/// subject, so a source of many profiles says what it did to each.
public struct ProfileChange: Sendable, Equatable {
    public let subject: Subject
    /// In the profile's order: `name`, `aliases`, `born`, `sex`, `class`, `species`, ...
    public var changed: [String]
    public var keptTyped: [TypedFieldKept]

    public init(subject: Subject, changed: [String], keptTyped: [TypedFieldKept] = []) {
        self.subject = subject
        self.changed = changed
        self.keptTyped = keptTyped
    }

    /// Whether there is anything to say about it.
    public var isEmpty: Bool { changed.isEmpty && keptTyped.isEmpty }
}
