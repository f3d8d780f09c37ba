import ArgumentParser
import DossierCore
import DossierPhotos
import Foundation

/// `dossier thumbnails`: makes every filed photo's thumbnail in the library's cache. Hidden: the
/// driver `scripts/bench-report` times until `dossier report` (which makes them as it writes
/// its pages) is there, and a way to warm the cache.
struct ThumbnailsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnails",
        abstract: "Make the thumbnail of every filed photo (cached under .dossier/thumbs/).",
        discussion: """
            Only reads the library's photos and writes its thumbnail cache, so it can run beside an import. \
            Exit status: 0 every photo has its thumbnail (videos and sound have none), 1 some could not be made \
            (each named on standard error), 2 the library could not be used.
            """,
        shouldDisplay: false)

    @OptionGroup var libraryOptions: LibraryOptions

    func run() async throws {
        let layout = libraryOptions.layout
        var filed: [FiledFile] = []
        if let index = try CommandSupport.readIndex(layout) {
            defer { index.close() }
            do {
                filed = try index.contents().filed
            } catch {
                StandardStreams.writeError("dossier: \(error)\n")
                throw ExitCode(2)
            }
        }
        let started = ContinuousClock.now
        let results = await Task.detached { ThumbnailCache(layout: layout).thumbnails(of: filed) }.value
        var made = 0, none = 0, failed = 0
        for result in results {
            switch result {
            case .success(.some): made += 1
            case .success(.none): none += 1
            case .failure(let error):
                failed += 1
                StandardStreams.writeError("dossier: \(SourcePath.displayed(error.description))\n")
            }
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        StandardStreams.writeOut("\(made) thumbnails, \(none) files without one, \(failed) failed, "
            + "in \(String(format: "%.2f", seconds)) s\n")
        if failed > 0 { throw ExitCode(1) }
    }
}
