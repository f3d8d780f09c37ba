import ArgumentParser
import DossierCore

/// The options every command that touches a library shares.
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The library folder.",
        discussion: "Defaults to $DOSSIER_LIBRARY, else ./Library.",
        valueName: "path"))
    var library: String?

    var layout: LibraryLayout { LibraryLayout.resolve(option: library, photoFormats: BuiltinPlugins.photoFormats) }
}
