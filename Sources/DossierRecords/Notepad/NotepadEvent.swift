/// What one line of a log gives: entries and problems in the order they concern the line.
public enum NotepadEvent: Sendable, Equatable {
    case entry(NotepadEntry)
    case problem(NotepadProblem)
}
