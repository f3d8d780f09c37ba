import ArgumentParser

/// `dossier index ...`: the library's index, which is only ever a fast way in.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Maintain the library's index (.dossier/index.sqlite).",
        subcommands: [RebuildIndexCommand.self])
}
