import ArgumentParser

/// `dossier quarantine`: the sources the daemon could not file.
struct QuarantineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quarantine",
        abstract: "List, retry or remove the sources `dossier watch` could not file.",
        discussion: """
            A source the daemon cannot file (damaged, unreadable, with no subject, of a kind Dossier does not \
            read) is moved out of the inbox to <library>/quarantine/<YYYY-MM-DD>/<name>, with \
            <name>.error.json beside it: where it came from, the stage that failed, why, when, and which Dossier. \
            Its id is <YYYY-MM-DD>/<name>. After the cause is fixed (`dossier subjects add` for a missing \
            subject, an upgrade for a kind Dossier did not read), `retry` puts it through the pipeline again, \
            routed by its original path, or under `--subject KIND/ID`; what files leaves the quarantine. \
            `remove` deletes quarantined files for good: on a terminal it lists them and asks first; a \
            script must give --yes.

            Examples:
              dossier quarantine
              dossier quarantine list --json
              dossier quarantine retry 2026-11-25/IMG_0042.jpg
              dossier quarantine retry --all
              dossier quarantine retry 2026-11-25/notes.txt --subject pets/leo
              dossier quarantine remove 2026-11-25/notes.docx
              dossier quarantine remove --all --yes
            """,
        subcommands: [ListQuarantineCommand.self, RetryQuarantineCommand.self, RemoveQuarantineCommand.self],
        defaultSubcommand: ListQuarantineCommand.self)
}
