import ArgumentParser
import DossierCore
import Foundation

/// `dossier move PATH... --subject KIND/ID`: files filed items under another subject.
struct MoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "File photos, videos or sounds filed under the wrong subject under the right one.",
        discussion: """
            Each path names a filed item: a photo with its rendition, its Live Photo movie, a raw or sidecars filed \
            beside it, and the original kept of its source; a video; a sound. Naming any of its files moves the \
            whole item. A path is one below the library (as your shell names it, or relative to the library as \
            `dossier verify` names files). The item is filed under --subject as an import would have filed it \
            there: the same names (a name is the date and the digest), in the same year folders, a -2 after the \
            name where that subject holds other bytes under it; a Live Photo's movie or a raw filed beside a still \
            that is not with it takes a name of its own. The index changes in one step, and the item leaves its \
            subject only once it is under the other: stopped at any moment, it is under one of the two, and the \
            next command that writes to the library finishes or undoes the move. No later import files it under \
            the subject it left again: an import of its source says where it went (a duplicate of it there).

            Every file of the item must hold the bytes it was filed with: a damaged or missing one is refused, \
            naming the fix (`dossier verify --repair`, or `dossier remove`).

            Exit status: 0 when every item was moved; 1 when a path named no filed item, or an item could not be \
            moved (the others are); 2 when the library could not be used; 64 when --subject names no subject.

            Examples:
              dossier move pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.heic --subject pets/milo
              dossier move ~/Dossier/children/mina/videos/2024/2024-05-01_101500_9f8e7d6c.mp4 --subject children/jun --library ~/Dossier
              dossier move pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg --subject pets/milo --dry-run --json
            """)

    @Argument(help: ArgumentHelp("Filed files: in the library, or relative to it.", valueName: "path"))
    var paths: [String] = []

    @Option(help: ArgumentHelp("The subject to file them under, e.g. pets/milo or children/jun.", valueName: "kind/id"))
    var subject: String

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(help: "Show where each item would go; change nothing.")
    var dryRun = false

    @Flag(help: "Print one JSON object per item, then a summary object, on standard output.")
    var json = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Give at least one filed photo, video or sound to move.") }
        do { _ = try Subject(parsing: subject) } catch { throw ValidationError("--subject: \(error)") }
    }

    func run() throws {
        let layout = libraryOptions.layout
        let target: Subject
        do {
            target = try CommandSupport.existingSubject(subject, in: layout)
        } catch let error as ValidationError {
            throw ValidationError("--subject: \(error.message)")
        }
        let taking = TakingOut(layout: layout, json: json, dryRun: dryRun)
        let tally = try taking.take(paths, verb: "moved") { mover, item in try mover.move(item, to: target, dryRun: dryRun) }
        let done = tally.taken.count
        try taking.saySummary(done: done, failed: tally.failed, files: tally.files, verb: "moved",
                              closing: " to \(target.path). No import files \(done == 1 ? "it" : "them") under the subject "
                                + "\(done == 1 ? "it" : "they") left again.")
        if tally.failed > 0 { throw ExitCode(1) }
    }
}
