import ArgumentParser
import DossierCore
import Foundation
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
                      ReportCommand.self, VerifyCommand.self, RemoveCommand.self, MoveCommand.self, PluginsCommand.self, IndexCommand.self,
                      ThumbnailsCommand.self]
    )

    public init() {}

    /// Runs the command line: parses it, runs the command, and says what was wrong with it as
    /// that command's own usage. argument-parser's `main` would answer a value a command refuses
    /// once it runs (`--subject pets/lepo`) with the top command's usage, and a misspelt command
    /// (`dossier improt`) with a complaint about whatever option follows it.
    public static func run(_ arguments: [String]) async {
        if let unknown = unknownCommand(in: arguments) {
            StandardStreams.writeError(unknown)
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            exit(withError: error)
        }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let error as ValidationError {
            let usage = usageString(for: type(of: command))
            let path = usage.prefix { $0 != "[" && $0 != "<" && $0 != "\n" }.trimmingCharacters(in: .whitespaces)
            StandardStreams.writeError("Error: \(error.message)\nUsage: \(usage)\n  See '\(path) --help' for more information.\n")
            Foundation.exit(ExitCode.validationFailure.rawValue)
        } catch {
            exit(withError: error)
        }
    }

    /// The message for a first word that names no command (and is no option), with the nearest
    /// commands; nil when it names one. Below a command of commands (`quarantine retyr`), a word
    /// that is none of its commands but near one is named too: its default command (`list`)
    /// would take it for an argument of its own.
    static func unknownCommand(in arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard names.contains(first) else {
            let closest = ClosestNames.closest(to: first, among: names, count: 2).map { "'\($0)'" }
            return "Error: '\(SourcePath.displayed(first))' is not a dossier command"
                + (closest.isEmpty ? "" : " (did you mean \(closest.joined(separator: " or "))?)")
                + ".\n  See 'dossier --help' for the commands.\n"
        }
        guard let group = configuration.subcommands.first(where: { $0.configuration.commandName == first }),
              !group.configuration.subcommands.isEmpty, arguments.count > 1
        else { return nil }
        let second = arguments[1]
        let inner = group.configuration.subcommands.compactMap { $0.configuration.commandName }
        guard !second.hasPrefix("-"), !inner.contains(second),
              let nearest = ClosestNames.closest(to: second, among: inner, count: 1).first
        else { return nil }
        return "Error: '\(SourcePath.displayed(second))' is not a command of dossier \(first) (did you mean '\(nearest)'?).\n"
            + "  See 'dossier \(first) --help' for its commands.\n"
    }

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
