import ArgumentParser

/// `dossier`: files the photos and records of pets and children, one folder per subject.
public struct DossierCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "dossier",
        abstract: "File photos and care records of pets and children, one folder per subject.",
        discussion: """
            Dossier imports phone photo dumps (JPEG, PNG) into <library>/pets/<id>/ and \
            <library>/children/<id>/, turning every photo upright for good.
            """,
        version: "0.1.0",
        subcommands: [ImportCommand.self, SubjectsCommand.self, RecordsCommand.self, ProblemsCommand.self, TodayCommand.self,
                      PluginsCommand.self, IndexCommand.self]
    )

    public init() {}
}
