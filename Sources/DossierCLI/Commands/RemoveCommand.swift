import ArgumentParser
import DossierCore
import Foundation

/// `dossier remove PATH...`: takes filed items out of the library, keeping their bytes.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Take filed photos, videos or sounds out of the library, keeping their bytes under removed/.",
        discussion: """
            Each path names a filed item: a photo with its rendition, its Live Photo movie, a raw or sidecars filed \
            beside it, and the original kept of its source; a video; a sound. Naming any of its files takes the whole \
            item. A path is one below the library (as your shell names it, or relative to the library as `dossier \
            verify` names files). Nothing is deleted: each file is moved to removed/<day>/<its path>, where you may \
            look at it or delete it yourself. The index remembers what was removed, so `dossier verify` no longer \
            expects it, and no later import (nor the daemon) files it under that subject again: an import of its \
            source says it was removed, and skips it (the source stays where it is). To file it under another \
            subject instead, use `dossier move`, or import its source with --subject.

            A filed file deleted by hand (which `dossier verify` calls missing) is forgotten the same way.

            Records (the lines of a year file) are not items: they come from their sources, and are changed by \
            editing the source and importing it again.

            It waits for an import or the daemon's batch using the library, and is safe to stop at any moment: \
            the next command that writes to the library finishes or undoes it, and nothing is lost.

            Exit status: 0 when every item was removed; 1 when a path named no filed item, or an item could not be \
            removed (the others are); 2 when the library could not be used.

            Examples:
              dossier remove pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg
              dossier remove ~/Dossier/pets/leo/videos/2024/2024-03-02_141503_5e6f7a8b.mov --library ~/Dossier
              dossier remove pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.heic --dry-run --json
            """)

    @Argument(help: ArgumentHelp("Filed files: in the library, or relative to it.", valueName: "path"))
    var paths: [String] = []

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(help: "Show what would be removed; change nothing.")
    var dryRun = false

    @Flag(help: "Print one JSON object per item, then a summary object, on standard output.")
    var json = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Give at least one filed photo, video or sound to remove.") }
    }

    func run() throws {
        let taking = TakingOut(layout: libraryOptions.layout, json: json, dryRun: dryRun)
        let tally = try taking.take(paths, verb: "removed") { mover, item in try mover.remove(item, dryRun: dryRun) }
        let done = tally.taken.count
        let day = tally.taken.lazy.flatMap { $0.steps.compactMap(\.to) }.first
            .map { $0.split(separator: "/").prefix(2).joined(separator: "/") + "/" }
        let subjects = Set(tally.taken.map(\.item.subject)).sorted().joined(separator: ", ")
        try taking.saySummary(done: done, failed: tally.failed, files: tally.files, verb: "removed",
                              closing: (day.map { "; kept under \($0)" } ?? "")
                                + ". No import files \(done == 1 ? "it" : "them") under \(subjects) again.")
        if tally.failed > 0 { throw ExitCode(1) }
    }
}
