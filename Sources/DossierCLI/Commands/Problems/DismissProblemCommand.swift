import ArgumentParser
import DossierCore

/// `dossier problems dismiss ID`: drops a problem the user has dealt with (or does not care for).
struct DismissProblemCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dismiss",
        abstract: "Drop problems from the ledger (the kept copy of their source stays in the library).",
        discussion: """
            Examples:
              dossier problems dismiss 12
              dossier problems dismiss 12 13 14
            """)

    @Argument(help: ArgumentHelp("The problems' ids, as `dossier problems` shows them.", valueName: "id"))
    var ids: [Int64] = []

    @OptionGroup var libraryOptions: LibraryOptions

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Give the id of at least one problem, as `dossier problems` shows them.") }
    }

    func run() throws {
        let layout = libraryOptions.layout
        try CommandSupport.requireLibrary(layout)
        var unknown: [Int64] = []
        try CommandSupport.withLibraryError {
            let session = try CommandSupport.openLibrary(layout)
            guard let index = session.index else { return }
            for id in ids {
                if try index.dismissProblem(id: id) {
                    StandardStreams.writeOut("Dismissed problem #\(id).\n")
                } else {
                    unknown.append(id)
                }
            }
        }
        if !unknown.isEmpty {
            StandardStreams.writeError("dossier: no problem with the id \(unknown.map { "#\($0)" }.joined(separator: ", ")) "
                + "in \(layout.root.path) (see `dossier problems`)\n")
            throw ExitCode(1)
        }
    }
}
