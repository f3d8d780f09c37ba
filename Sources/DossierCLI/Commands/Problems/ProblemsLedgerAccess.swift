import ArgumentParser
import DossierCore

/// What the problems commands share.
enum ProblemsLedgerAccess {
    /// Refuses a folder that holds no library: a typo in --library must not read as "no problems".
    static func requireLibrary(_ layout: LibraryLayout) throws {
        guard layout.holdsLibrary else {
            StandardStreams.writeError("dossier: no library at \(layout.root.path) (give --library or set DOSSIER_LIBRARY)\n")
            throw ExitCode(2)
        }
    }
}
