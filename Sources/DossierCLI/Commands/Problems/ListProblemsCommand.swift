import ArgumentParser
import DossierCore
import Foundation

/// `dossier problems list`: the problems ledger, oldest first.
struct ListProblemsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the lines and entries that were not filed, with their source, line and reason.")

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(help: "One JSON object per problem: id, source, kept, line, text, reason, found_at.")
    var json = false

    func run() throws {
        let layout = libraryOptions.layout
        try CommandSupport.requireLibrary(layout)
        try CommandSupport.withLibraryError {
            let problems = try CommandSupport.readIndex(layout)?.problems() ?? []
            if json {
                for problem in problems { StandardStreams.writeOut(ListProblemsCommand.jsonLine(problem) + "\n") }
            } else if problems.isEmpty {
                StandardStreams.writeOut("No problems: every line of every source imported into \(layout.root.path) was filed.\n")
            } else {
                for problem in problems { StandardStreams.writeOut(ListProblemsCommand.text(problem)) }
                StandardStreams.writeOut("\(problems.count) \(problems.count == 1 ? "problem" : "problems"). "
                    + "Fix the cause, then `dossier problems retry`; or `dossier problems dismiss ID`.\n")
            }
        }
    }

    /// `#12  /logs/notes.txt:3: unknown name '레우' (did you mean 레오?)`, then the line as written
    /// and where the library keeps the source.
    static func text(_ problem: LedgerProblem) -> String {
        var text = "#\(problem.id ?? 0)  \(problem.sourcePath)\(problem.line.map { ":\($0)" } ?? ""): \(problem.reason)\n"
        if let line = problem.text { text += "      \(line)\n" }
        if let kept = problem.keptPath { text += "      kept as \(kept)\n" }
        return text
    }

    static func jsonLine(_ problem: LedgerProblem) -> String {
        let object: [String: Any] = [
            "id": problem.id ?? 0,
            "source": problem.sourcePath,
            "kept": problem.keptPath ?? NSNull(),
            "line": problem.line ?? NSNull(),
            "text": problem.text ?? NSNull(),
            "reason": problem.reason,
            "foundAt": problem.foundAt,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
