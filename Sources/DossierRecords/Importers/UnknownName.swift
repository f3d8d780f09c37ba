/// The problem for a name no subject answers to, with the closest known names.
enum UnknownName {
    static func problem(line: Int, name: String, directory: SubjectDirectory) -> NotepadProblem {
        let suggestions = directory.suggestions(for: name)
        let hint = suggestions.isEmpty ? "" : " (did you mean \(suggestions.joined(separator: " or "))?)"
        return NotepadProblem(line: line, reason: "unknown name '\(name)'\(hint)")
    }
}
