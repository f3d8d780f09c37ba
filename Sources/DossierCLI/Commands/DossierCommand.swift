import ArgumentParser
import DossierCore
import DossierWatch

/// `dossier`: files the photos and records of pets and children, one folder per subject.
public struct DossierCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "dossier",
        abstract: "File photos and care records of pets and children, one folder per subject.",
        discussion: """
            Dossier imports phone photo dumps (JPEG, PNG, HEIC, videos, Live Photos), notepad \
            logs, CSV exports and property lists into <library>/pets/<id>/ and \
            <library>/children/<id>/, turning every photo upright for good.
            """,
        version: DossierVersion.current,
        subcommands: [InitCommand.self, ImportCommand.self, WatchCommand.self, QuarantineCommand.self, SubjectsCommand.self, RecordsCommand.self, ProblemsCommand.self, TodayCommand.self,
                      VerifyCommand.self, PluginsCommand.self, IndexCommand.self]
    )

    public init() {}

    /// Settles, before the process has a second thread, what cannot be changed after: the
    /// daemon's malloc arenas. glibc fixes how many arenas there may be when the first thread
    /// after the main one allocates, and Swift's pool threads start at the first `await`; set any
    /// later, the limit does not hold: the arenas made before it keep free memory that
    /// `malloc_trim` cannot give back (docs/performance.md, "DaemonMemory").
    public static func prepareProcess(for arguments: [String]) {
        if arguments.first == WatchCommand.configuration.commandName {
            DaemonMemory.configure()
        }
    }

    /// The command line as the bytes it was given: a path that is not UTF-8 (CP949 names from
    /// a Korean Windows zip) must still name its file. `CommandLine.arguments` would have
    /// replaced its bytes with U+FFFD.
    public static var argumentsAsGiven: [String] {
        (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { SourcePath.string(fromCString: $0) }
        }
    }
}
