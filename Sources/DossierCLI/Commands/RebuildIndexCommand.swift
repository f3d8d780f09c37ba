import ArgumentParser
import DossierCore

/// `dossier index rebuild`: the index anew from the subject folders.
struct RebuildIndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Rebuild the index from the subject folders (for a lost or damaged index).",
        discussion: """
            Every filed photo and year file of records is read and hashed again; sources imported before are \
            recognised by their filed bytes and record ids. A filed file whose bytes are not the ones its name \
            was made from is damaged: it is named on standard error, and the exit status is 1. A folder among the \
            filed files that holds another library is passed over whole, named on standard error (status 3).
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(name: .customLong("no-wait"), help: "Fail at once if an import is using the library, instead of waiting.")
    var noWait = false

    func run() throws {
        let layout = libraryOptions.layout
        try CommandSupport.requireLibrary(layout)
        try CommandSupport.withLibraryError {
            // A damaged index, or one made for another library, is moved aside (never deleted).
            let session = try LibrarySession.open(layout, access: .existing, dryRun: false, waitForLock: !noWait,
                                                  whileWaiting: CommandSupport.sayWaiting, forRebuild: true)
            defer { session.close() }
            for notice in session.notices { StandardStreams.writeError("dossier: \(notice)\n") }
            if let movedAside = session.movedAside {
                let why = movedAside.contains(".damaged-") ? "was damaged" : "was made for another library"
                StandardStreams.writeOut("The index \(why): moved aside to \(movedAside) (kept, not deleted).\n")
            }
            guard let index = session.index else { return }
            let rebuilt = try IndexRebuilder(layout: layout).rebuild(into: index)
            let (photos, recordFiles, misnamed) = (rebuilt.photos, rebuilt.recordFiles, rebuilt.misnamed)
            for finding in misnamed { StandardStreams.writeError(VerifyCommand.line(for: finding)) }
            for folder in rebuilt.otherLibraries {
                StandardStreams.writeError("dossier: \(LibraryNotice.otherLibraryPassedOver(path: layout.root.path, folder: folder))\n")
            }
            StandardStreams.writeOut("Indexed \(photos) \(photos == 1 ? "photo" : "photos") and \(recordFiles) "
                + "\(recordFiles == 1 ? "year file" : "year files") of records in \(layout.root.path)\n")
            if !misnamed.isEmpty {
                StandardStreams.writeError("dossier: \(misnamed.count) filed \(misnamed.count == 1 ? "file's bytes do" : "files' bytes do") "
                    + "not match \(misnamed.count == 1 ? "its name" : "their names"): damaged; indexed as they are. Import their "
                    + "sources again to file them anew; `dossier verify` lists them.\n")
                throw ExitCode(1)
            }
            // Finished, and left a folder for a person to move.
            if !rebuilt.otherLibraries.isEmpty { throw ExitCode(3) }
        }
    }
}
