import ArgumentParser
import DossierCore

/// `dossier quarantine remove ID`: deletes a quarantined source for good.
struct RemoveQuarantineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Delete a quarantined source and its note, for good.")

    @Argument(help: ArgumentHelp("The quarantined source's id, as `dossier quarantine list` shows it.", valueName: "id"))
    var ids: [String] = []

    @OptionGroup var libraryOptions: LibraryOptions

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Give the id of a quarantined source (see `dossier quarantine list`).") }
    }

    func run() throws {
        let layout = libraryOptions.layout
        try CommandSupport.requireLibrary(layout)
        try CommandSupport.withLibraryError {
            let lock = try LibraryLock.acquire(layout, wait: true, waiting: CommandSupport.sayWaiting)
            defer { lock.release() }
            let quarantine = Quarantine(layout: layout)
            let entries = try CommandSupport.quarantined(ids, in: quarantine)
            for entry in entries {
                try quarantine.remove(entry)
                StandardStreams.writeOut("Removed \(SourcePath.displayed(entry.id)) (from \(SourcePath.displayed(entry.originalPath))).\n")
            }
        }
    }
}
