import ArgumentParser
import DossierCore

/// `dossier index rebuild`: the index anew from the subject folders.
struct RebuildIndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Rebuild the index from the subject folders (for a lost or damaged index).",
        discussion: """
            Every filed photo and year file of records is read and hashed again; sources imported before are \
            recognised by their filed bytes and record ids.
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(name: .customLong("no-wait"), help: "Fail at once if an import is using the library, instead of waiting.")
    var noWait = false

    func run() throws {
        let layout = libraryOptions.layout
        guard layout.holdsLibrary else {
            throw ValidationError("\(layout.root.path) is not a library: it has no pets or children folder.")
        }
        try CommandSupport.withLibraryError {
            let (photos, recordFiles, movedAside) = try IndexRebuilder(layout: layout).rebuild(waitForLock: !noWait)
            if let movedAside {
                StandardStreams.writeOut("The index was damaged: moved aside to \(movedAside) (kept, not deleted).\n")
            }
            StandardStreams.writeOut("Indexed \(photos) \(photos == 1 ? "photo" : "photos") and \(recordFiles) "
                + "\(recordFiles == 1 ? "year file" : "year files") of records in \(layout.root.path)\n")
        }
    }
}
