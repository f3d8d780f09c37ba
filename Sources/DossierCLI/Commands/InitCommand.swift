import ArgumentParser
import DossierCore
import Foundation

/// `dossier init [PATH]`: makes a new, empty library.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Make a new library: its folders, its id and its time zone.",
        discussion: """
            A library is known by the random id this gives it (kept in <library>/.dossier/library.json and in its \
            index), not by its path: `dossier watch` files only into the library it started with, and waits \
            while its path holds none (a drive unmounted, a library moved away) or another. The first \
            `dossier import` or `dossier subjects add` into a folder makes a library there too, and says so; \
            every other command refuses a folder that holds none, or holds no id (a folder of photos sorted into \
            pets/<id>/, a library made by an earlier Dossier: `dossier init` gives the latter its index's id). \
            No library is made inside another library's folders, or in a folder that holds one.

            Examples:
              dossier init ~/Dossier
              dossier init /mnt/usb/Dossier --time-zone Asia/Seoul
            """)

    @Argument(help: ArgumentHelp("Where to make it (default: --library, $DOSSIER_LIBRARY, else ./Library).", valueName: "path"))
    var path: String?

    @OptionGroup var libraryOptions: LibraryOptions

    @Option(help: ArgumentHelp("The time zone its dates are read in, like Asia/Seoul (default: this machine's).",
                               valueName: "zone"))
    var timeZone: String?

    func validate() throws {
        if path != nil && libraryOptions.library != nil {
            throw ValidationError("Give the library's path once: as the argument or as --library, not both.")
        }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw ValidationError("--time-zone: '\(timeZone)' is no time zone; give one like Asia/Seoul or Europe/Berlin.")
        }
    }

    func run() throws {
        let layout = path.map { LibraryLayout(root: URL(fileURLWithPath: $0), photoFormats: BuiltinPlugins.photoFormats) }
            ?? libraryOptions.layout
        try CommandSupport.withLibraryError {
            let state = try LibraryIdentity.state(of: layout)
            if case .identified(let identity) = state {
                StandardStreams.writeError("dossier: \(layout.root.path) is a library already (id \(identity.shortID)); "
                    + "nothing was changed\n")
                throw ExitCode(1)
            }
            let zone = timeZone.flatMap(TimeZone.init(identifier:))
            if state == .unidentified, let zone, try LibraryTimeZone.of(layout) != zone {
                throw ValidationError("--time-zone: \(layout.root.path) holds a library already, whose dates are read in "
                    + "\(try LibraryTimeZone.of(layout).identifier); edit its config/library.json to change that.")
            }
            let session = try LibrarySession.open(layout, access: .creatingIfAbsent, dryRun: false, waitForLock: true,
                                                  whileWaiting: CommandSupport.sayWaiting)
            defer { session.close() }
            if state == .absent, let zone { try LibraryTimeZone.write(zone, in: layout) }
            for notice in session.notices { StandardStreams.writeOut("\(String(describing: notice).capitalisingFirst).\n") }
            StandardStreams.writeOut("Its dates are read in \(try LibraryTimeZone.of(layout).identifier) (config/library.json). "
                + "Next: `dossier subjects add pets/ID --name NAME --library \(layout.root.path)`, then import or watch.\n")
        }
    }
}

private extension String {
    var capitalisingFirst: String { prefix(1).uppercased() + dropFirst() }
}
