import ArgumentParser
import DossierCore

extension CommandSupport {
    /// Refuses a folder that holds no library: a typo in --library, or a drive that is not
    /// mounted, must not read as an empty library (no subjects, no birthdays, no problems); nor a
    /// folder without a library's id (a photo dump sorted into pets/<id>/), which only `init`,
    /// `import` and `subjects add` make a library. Returns the library's identity.
    @discardableResult
    static func requireLibrary(_ layout: LibraryLayout) throws -> LibraryIdentity {
        try exitingOnLibraryError {
            switch try LibraryIdentity.state(of: layout) {
            case .identified(let identity): return identity
            case .unidentified: throw LibraryError.noLibraryID(path: layout.root.path)
            case .absent: throw LibraryError.noLibrary(path: layout.root.path)
            }
        }
    }

    /// The library's index for reading (nil while it has none), refused when it was made for
    /// another library.
    static func readIndex(_ layout: LibraryLayout) throws -> LibraryIndex? {
        let identity = try requireLibrary(layout)
        return try exitingOnLibraryError { try LibraryIndex.openReadOnly(layout, identity: identity) }
    }

    /// Opens the library for writing (waiting for its lock), and says what opening it did: made
    /// it, gave it an id, rebuilt its index. Only `import` and `subjects add` make a library
    /// where there is none; the other commands refuse a folder that holds none.
    static func openLibrary(_ layout: LibraryLayout, access: LibrarySession.Access = .existing) throws(LibraryError)
        -> LibrarySession
    {
        let session = try LibrarySession.open(layout, access: access, dryRun: false, waitForLock: true, whileWaiting: sayWaiting)
        for notice in session.notices { StandardStreams.writeError("dossier: \(notice)\n") }
        return session
    }

    /// A library error as one line on standard error and exit status 2: the library itself could not be used.
    private static func exitingOnLibraryError<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as LibraryError {
            StandardStreams.writeError("dossier: \(error)\n")
            throw ExitCode(2)
        }
    }
}
