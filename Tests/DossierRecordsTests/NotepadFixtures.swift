import DossierCore
@testable import DossierRecords

/// Subjects, a directory and whole-value builders shared by the notepad tests.
enum NotepadFixtures {
    static let leo = subject("pets/leo")
    static let coco = subject("pets/coco")
    static let bigRed = subject("pets/big-red")
    static let mina = subject("children/mina")

    static let directory = SubjectDirectory(entries: [
        (leo, ["leo", "레오"]),
        (coco, ["coco", "코코", "Coconut"]),
        (bigRed, ["big-red", "Big Red"]),
        (mina, ["mina", "민아"]),
    ])

    static let nonNames: Set<String> = ["fed", "weight", "먹이", "귀뚜라미", "탈피", "체중", "shed"]

    static func subject(_ reference: String) -> Subject {
        do { return try Subject(parsing: reference) } catch { fatalError("\(error)") }
    }

    /// Every event of `text`, fed line by line as `LineReader` would, then `finish()`.
    static func parse(_ text: String, monthFirst: Bool = true, fallbackYear: Int = 2024,
                      directory: SubjectDirectory = directory, fileSubject: Subject? = nil) -> [NotepadEvent] {
        var parser = NotepadParser(directory: directory, fileSubject: fileSubject,
                                   options: NotepadOptions(monthFirst: monthFirst, fallbackYear: fallbackYear,
                                                           nonNames: nonNames))
        var events: [NotepadEvent] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            parser.parse(TextLine(number: index + 1, text: String(line), terminator: "\n")) { events.append($0) }
        }
        parser.finish { events.append($0) }
        return events
    }

    /// An entry; `text` defaults to the line as given, trimmed.
    static func entry(_ line: Int, _ date: String, _ subject: Subject?, _ body: String, text: String) -> NotepadEvent {
        guard let parsed = RecordDate(iso8601: date) else { fatalError("bad date \(date)") }
        return .entry(NotepadEntry(line: line, date: parsed, subject: subject, body: Substring(body), text: text))
    }

    static func problem(_ line: Int, _ reason: String) -> NotepadEvent {
        .problem(NotepadProblem(line: line, reason: reason))
    }
}
