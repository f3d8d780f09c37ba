import ArgumentParser

/// `dossier problems`: the lines and entries of sources that were not filed.
struct ProblemsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "problems",
        abstract: "List, retry or dismiss the lines of sources that were not filed.",
        discussion: """
            Every line or entry an import could not file (an unknown name, no date, an impossible date, a value \
            that cannot be read, a line too long, a bad profile id) is kept in the problems ledger with the \
            library's copy of its source (under <library>/sources/), its line and the reason. Fix the cause \
            (`dossier subjects edit pets/leo --add-alias 레우` for a misspelt name, `dossier subjects add` for a \
            new one), then `dossier problems retry` reads those sources again and files what now resolves. \
            A problem keeps its id until it is solved or dismissed, through retries and re-imports: it is the \
            same problem while the same line (its text as written) is not filed, wherever an edit moved it.

            Examples:
              dossier problems
              dossier problems --json
              dossier problems retry
              dossier problems dismiss 12
            """,
        subcommands: [ListProblemsCommand.self, RetryProblemsCommand.self, DismissProblemCommand.self],
        defaultSubcommand: ListProblemsCommand.self)
}
