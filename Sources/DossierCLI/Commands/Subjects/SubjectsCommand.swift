import ArgumentParser

/// `dossier subjects ...`: the pets and children a library files things under.
struct SubjectsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subjects",
        abstract: "Add, edit, list and show the pets and children of a library.",
        subcommands: [AddSubjectCommand.self, EditSubjectCommand.self, ListSubjectsCommand.self, ShowSubjectCommand.self])
}
