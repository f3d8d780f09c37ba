/// What a notepad log cannot say about itself: how its writer orders day and month, which
/// year its first undated entries belong to, and which words are never names.
public struct NotepadOptions: Sendable {
    /// `5/3` is May 3 when true (the US and app-export habit), 5 March when false.
    public var monthFirst: Bool = true
    /// The year for dates written without one when no entry before them has a year; the caller
    /// passes the year the file was last changed, the best guess a file offers.
    public var fallbackYear: Int
    /// Words never taken as a subject name, even in `word:` or `[word]`: kind keywords and
    /// foods (먹이, fed, weight, 귀뚜라미...). Compared like names, ignoring case.
    public var nonNames: Set<String>

    public init(monthFirst: Bool = true, fallbackYear: Int, nonNames: Set<String> = []) {
        self.monthFirst = monthFirst
        self.fallbackYear = fallbackYear
        self.nonNames = nonNames
    }
}
