import ArgumentParser
import DossierCore

/// `dossier quarantine remove ID...|--all`: deletes quarantined sources for good, once a person
/// has said so.
struct RemoveQuarantineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Delete quarantined sources and their notes, for good, once you say so.",
        discussion: """
            A quarantined source may be the only copy of a file, so nothing is deleted without a person's word. \
            On a terminal, remove lists what it would delete (the id, where the file came from, its size) and \
            asks; only y or yes deletes. --yes deletes without asking. With no terminal to ask on (a script, \
            a pipe, the daemon's unit), it deletes nothing unless --yes is given. It then says what it removed.

            Exit status: 0 when the files were removed (or the quarantine was empty); 1 when the answer was \
            not yes, and nothing was removed; 64 when there was no one to ask and no --yes.

            Examples:
              dossier quarantine remove 2026-11-25/notes.docx
              dossier quarantine remove --all
              dossier quarantine remove --all --yes
            """)

    @Argument(help: ArgumentHelp("Ids of quarantined sources, as `dossier quarantine list` shows them.", valueName: "id"))
    var ids: [String] = []

    @Flag(help: "Remove every quarantined source.")
    var all = false

    @Flag(name: [.customShort("y"), .long], help: "Remove without asking (what a script must say: it has no terminal to be asked on).")
    var yes = false

    @OptionGroup var libraryOptions: LibraryOptions

    func validate() throws {
        if ids.isEmpty == !all { throw ValidationError("Give the ids of quarantined sources, or --all.") }
    }

    func run() throws {
        let layout = libraryOptions.layout
        try CommandSupport.requireLibrary(layout)
        try CommandSupport.withLibraryError {
            let quarantine = Quarantine(layout: layout)
            var chosen: [QuarantineEntry] = []
            for entry in all ? try quarantine.entries() : try CommandSupport.quarantined(ids, in: quarantine)
            where !chosen.contains(where: { $0.id == entry.id }) {
                chosen.append(entry)
            }
            guard !chosen.isEmpty else {
                StandardStreams.writeOut("Nothing in quarantine in \(layout.root.path).\n")
                return
            }
            if !yes {
                guard Consent.canAsk else {
                    StandardStreams.writeError("dossier: quarantine remove deletes for good, and there is no terminal to ask on; "
                        + "nothing removed. Give --yes to remove without being asked.\n")
                    throw ExitCode(64)
                }
                // Asked before the library's lock is taken: a person who walks away from the
                // question must not keep the daemon from filing.
                for entry in chosen {
                    StandardStreams.writeError("\(SourcePath.displayed(entry.id))\n"
                        + "    from \(SourcePath.displayed(entry.originalPath)) (\(CommandSupport.bytes(entry.size)))\n")
                }
                let files = chosen.count == 1 ? "1 quarantined file" : "\(chosen.count) quarantined files"
                guard Consent.ask("Remove \(files) for good?") else {
                    StandardStreams.writeOut("Nothing removed.\n")
                    throw ExitCode(1)
                }
            }
            let lock = try LibraryLock.acquire(layout, wait: true, waiting: CommandSupport.sayWaiting)
            defer { lock.release() }
            // Only the very files that were shown: one retried meanwhile has left, and another
            // quarantined since under its name is not the one the person agreed to lose.
            let present = try quarantine.entries()
            for entry in chosen {
                guard let now = present.first(where: { $0.id == entry.id }) else {
                    StandardStreams.writeOut("\(SourcePath.displayed(entry.id)) left the quarantine meanwhile; nothing to remove.\n")
                    continue
                }
                guard now.sha256 == entry.sha256 else {
                    StandardStreams.writeOut("\(SourcePath.displayed(entry.id)) now holds another file; left in quarantine.\n")
                    continue
                }
                try quarantine.remove(entry)
                StandardStreams.writeOut("Removed \(SourcePath.displayed(entry.id)) (from \(SourcePath.displayed(entry.originalPath))).\n")
            }
        }
    }
}
