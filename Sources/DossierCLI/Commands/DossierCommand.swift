import ArgumentParser
import DossierCore

/// `dossier`: files the photos and records of pets and children, one folder per subject.
public struct DossierCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "dossier",
        abstract: "File photos and care records of pets and children, one folder per subject.",
        discussion: """
            Dossier imports phone photo dumps (JPEG, PNG) into <library>/pets/<id>/ and \
            <library>/children/<id>/, turning every photo upright for good.
            """,
        version: DossierVersion.current,
        subcommands: [ImportCommand.self, WatchCommand.self, QuarantineCommand.self, SubjectsCommand.self, RecordsCommand.self, ProblemsCommand.self, TodayCommand.self,
                      PluginsCommand.self, IndexCommand.self]
    )

    public init() {}

    /// The command line as the bytes it was given: a path that is not UTF-8 (CP949 names from
    /// a Korean Windows zip) must still name its file. `CommandLine.arguments` would have
    /// replaced its bytes with U+FFFD.
    public static var argumentsAsGiven: [String] {
        (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { SourcePath.string(fromCString: $0) }
        }
    }
}
