import ArgumentParser
import DossierCore

/// `dossier quarantine list`.
struct ListQuarantineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the quarantined sources.")

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(help: "Print one JSON object per quarantined source on standard output.")
    var json = false

    func run() throws {
        let layout = libraryOptions.layout
        try CommandSupport.requireLibrary(layout)
        try CommandSupport.withLibraryError {
            let entries = try Quarantine(layout: layout).entries()
            if json {
                for entry in entries { StandardStreams.writeOut(try CommandSupport.json(entry) + "\n") }
                return
            }
            guard !entries.isEmpty else {
                StandardStreams.writeOut("Nothing in quarantine in \(layout.root.path).\n")
                return
            }
            // Each field escaped on its own (a note is a file anyone could have edited): every
            // entry is its three lines, whatever its name or reason holds.
            for entry in entries {
                StandardStreams.writeOut("\(SourcePath.displayed(entry.id))\n"
                    + "    from \(SourcePath.displayed(entry.originalPath)) (\(SourcePath.displayed(entry.quarantinedAt)))\n"
                    + "    \(entry.stage): \(SourcePath.displayed(entry.reason))\n")
            }
            StandardStreams.writeOut("\(entries.count) in quarantine; `dossier quarantine retry ID|--all` once the cause is fixed.\n")
        }
    }
}
