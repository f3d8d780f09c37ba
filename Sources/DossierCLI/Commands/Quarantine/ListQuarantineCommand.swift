import ArgumentParser
import DossierCore

/// `dossier quarantine list`.
struct ListQuarantineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the quarantined sources, and the inbox files that could not even be quarantined.",
        discussion: """
            A file `dossier watch` could neither file nor quarantine (unreadable, a link that leads nowhere or \
            loops) stays in the inbox and is listed here as stuck, with the reason; the daemon tries it again \
            when it changes (a permission fixed) and on SIGHUP.
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(help: "Print one JSON object per quarantined source (and per stuck file, with \"stuck\": true) on standard output.")
    var json = false

    func run() throws {
        let layout = libraryOptions.layout
        let index = try CommandSupport.readIndex(layout)
        try CommandSupport.withLibraryError {
            let entries = try Quarantine(layout: layout).entries()
            // A stuck file deleted by hand is gone from the list at once, not only at the daemon's next batch.
            let stuck = try (index?.stuckSources() ?? []).filter { SourcePath.status($0.path, followingLinks: false) != nil }
            index?.close()
            if json {
                for entry in entries { StandardStreams.writeOut(try CommandSupport.json(entry) + "\n") }
                for source in stuck { StandardStreams.writeOut(try CommandSupport.json(StuckLine(source)) + "\n") }
                return
            }
            guard !entries.isEmpty || !stuck.isEmpty else {
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
            for source in stuck {
                StandardStreams.writeOut("stuck: \(SourcePath.displayed(source.path)) (since \(SourcePath.displayed(source.since)))\n"
                    + "    \(SourcePath.displayed(source.reason))\n")
            }
            if !entries.isEmpty {
                StandardStreams.writeOut("\(entries.count) in quarantine; `dossier quarantine retry ID|--all` once the cause is fixed.\n")
            }
            if !stuck.isEmpty {
                StandardStreams.writeOut("\(stuck.count) stuck in the inbox, neither filed nor quarantined; fix the cause "
                    + "(a permission, a link), and the daemon takes it when it changes, or on SIGHUP.\n")
            }
        }
    }

    /// A stuck file in `--json`, with the keys a quarantined source's object uses where they mean the same.
    struct StuckLine: Encodable {
        let stuck = true
        let originalPath: String
        let reason: String
        let since: String

        init(_ source: StuckSource) {
            (originalPath, reason, since) = (source.path, source.reason, source.since)
        }
    }
}
