import DossierCore
import Foundation
import Synchronization

/// Finds the still a Live Photo's movie belongs with, and where that still is filed, so the movie
/// is filed beside it under the same name (`...1ad773a0.heic` and `...1ad773a0.mov`).
///
/// The still is, first, the photo carrying the movie's Apple content identifier: in the movie's
/// folder, or filed before from anywhere (the index keeps each still's identifier). Else the
/// photo in the movie's folder with the same name (`IMG_1234.HEIC` and `IMG_1234.MOV`), or one
/// filed from there under it before, only when the two say they were taken within
/// `CaptureDate.livePhotoWindow` of each other and carry no identifiers that differ: an
/// unrelated `exif.mp4` beside `exif.jpg`, or a 2020 `IMG_0712.MOV` after the 2024 `IMG_0712`
/// pair, is a video of its own. Where the still will be filed is worked out from its bytes as
/// filing does (its upright bytes' digest and its date), so it does not matter which of the two
/// is filed first, or in which run. A still that has its movie already keeps it (`Filer`).
struct LivePhotoPairing {
    let context: PipelineContext

    /// A Live Photo's still's extensions, lower case (compared without case).
    static let stillExtensions: Set<String> = ["heic", "jpg", "jpeg", "heif"]
    /// The photos a sidecar (`.AAE`, `.xmp`) may belong to: a Live Photo's stills, PNG, AVIF, the
    /// images and raws filed as they are (raws are what XMP sidecars are most written for).
    static let photoExtensions = stillExtensions.union(["png", "avif", "webp", "gif", "bmp", "tif", "tiff", "dng", "cr2",
                                                        "cr3", "nef", "arw", "orf", "rw2", "raf"])
    /// The formats a Live Photo's still, or a sidecar's photo, comes in.
    static let stillHandlers: [any PhotoFormatHandler] = [HEIFHandler(), JPEGHandler(), PNGHandler(), FiledAsItIsHandler.raws,
                                                          FiledAsItIsHandler.images]

    static func isStill(_ path: String) -> Bool { stillExtensions.contains((path as NSString).pathExtension.lowercased()) }

    /// The still's filed path relative to its subject's folder (`photos/2024/....heic`), or nil
    /// when the movie, `taken` when it says, has no still. A raw shot with a JPEG finds its JPEG
    /// the same way (with no identifier: its name and its time).
    func stillPath(forMovie source: SourceFile, identifier: String?, taken: CaptureDate) -> String? {
        still(forMovie: source, identifier: identifier, taken: taken)?.path
    }

    /// `stillPath`, and whether the still is among this run's sources (beside the movie in its
    /// folder): then it is filed in this run too, and the two end beside each other whichever is
    /// filed first. A still filed before stands in some subject's folder, which must be the
    /// movie's for the movie to take its name (`Filer`).
    func still(forMovie source: SourceFile, identifier: String?, taken: CaptureDate) -> (path: String, inRun: Bool)? {
        let folder = (source.path as NSString).deletingLastPathComponent
        let stem = ((source.path as NSString).lastPathComponent as NSString).deletingPathExtension
        let stills = context.resources.value(FolderStills.self) { FolderStills(sourcesInRun: context.sourcesInRun) }
        // The same name first (IMG_1234.HEIC and IMG_1234.MOV): read once, kept for the name rule below.
        let sameName = stills.stills(in: folder).filter {
            $0.stem.caseInsensitiveCompare(stem) == .orderedSame
                && LivePhotoPairing.isStill($0.path)
        }.compactMap { filedStill(at: $0.path) }
        if let identifier {
            if let still = sameName.first(where: { $0.identifier == identifier }) { return (still.path, true) }
            // Renamed, or in another folder: the folder's stills' identifiers (read once a run), then the index.
            if let path = stills.identifiers(in: folder, reading: { path in
                self.still(at: path).flatMap { LivePhotoPairing.identifier(of: $0.photo) }
            })[identifier], let still = filedStill(at: path) {
                return (still.path, true)
            }
            if let filed = filedEarlier(identifier: identifier) { return (filed, false) }
        }
        for still in sameName {
            if let identifier, let other = still.identifier, other != identifier { continue }
            if still.date.isWithin(CaptureDate.livePhotoWindow, of: taken) { return (still.path, true) }
        }
        // A filed name keeps the wall clock alone.
        if let filed = filedEarlier(folder: folder, stem: stem),
           let date = IndexRebuilder.captureDate(fromName: filed), date.isWithin(CaptureDate.livePhotoWindow, of: taken.dateTime) {
            return (filed, false)
        }
        return nil
    }

    /// The photo a sidecar belongs to, where it is filed (or will be), and its date: for
    /// `IMG_1234.JPG.xmp` the photo `IMG_1234.JPG`; for `IMG_1234.AAE` or `IMG_1234.xmp` a photo
    /// named `IMG_1234` in its folder, else one filed from its folder under that name before.
    func still(forSidecar source: SourceFile) throws -> (path: String, date: CaptureDate)? {
        let folder = (source.path as NSString).deletingLastPathComponent
        let stem = ((source.path as NSString).lastPathComponent as NSString).deletingPathExtension
        let named = LivePhotoPairing.photoExtensions.contains((stem as NSString).pathExtension.lowercased())
        let stills = context.resources.value(FolderStills.self) { FolderStills(sourcesInRun: context.sourcesInRun) }
        var candidates = stills.stills(in: folder).filter {
            ((named ? ($0.path as NSString).lastPathComponent : $0.stem) as NSString).caseInsensitiveCompare(stem) == .orderedSame
        }
        // The same name exactly wins over one that differs only in case (`IMG_0001.JPG`, `img_0001.jpg`).
        let exact = candidates.filter { (named ? ($0.path as NSString).lastPathComponent : $0.stem) == stem }
        if !exact.isEmpty { candidates = exact }
        if candidates.count > 1 {
            // `IMG_1.JPG` and `IMG_1.png` beside `IMG_1.xmp`: which one it belongs to is not said; no guess.
            throw NotImportable("a sidecar whose photo is not one file: \(candidates.map { ($0.path as NSString).lastPathComponent }.joined(separator: ", ")) "
                + "share its name; it is left where it is")
        }
        if let candidate = candidates.first {
            guard let still = filedStill(at: candidate.path) else {
                throw NotImportable("a sidecar whose photo \((candidate.path as NSString).lastPathComponent) beside it could not be read; "
                    + "it is left where it is")
            }
            return (still.path, still.date)
        }
        let filedEarlier = named
            ? filedEarlier(folder: folder, stem: (stem as NSString).deletingPathExtension,
                           extensions: [(stem as NSString).pathExtension])
            : filedEarlier(folder: folder, stem: stem, extensions: LivePhotoPairing.photoExtensions.sorted())
        guard let filed = filedEarlier,
              let date = IndexRebuilder.captureDate(fromName: filed)
        else { return nil }
        return (filed, CaptureDate(date, origin: .itsPhoto))
    }

    /// Where the photo at `path` is filed (or will be), its date, and its content identifier;
    /// nil if it is not a photo Dossier reads.
    private func filedStill(at path: String) -> (path: String, date: CaptureDate, identifier: String?)? {
        guard let still = still(at: path), let upright = try? still.handler.upright(still.photo) else { return nil }
        // Filed already (an earlier import of the same bytes, dated then by another mtime): its name
        // in the library is the one to stand beside, not the one these bytes would get today.
        let filed = (try? context.index?.filedFiles(sha256: upright.contentDigest))?.lazy.compactMap { file -> String? in
            let parts = file.path.split(separator: "/", maxSplits: 2)
            return parts.count == 3 && parts[2].hasPrefix("photos/") ? String(parts[2]) : nil
        }.first
        let name = filed ?? context.layout.photoName(takenAt: upright.captureDate.dateTime, digest: upright.contentDigest,
                                                     format: upright.format)
        return (name, CaptureDate(upright.captureDate.dateTime, origin: .itsPhoto, utcOffset: upright.captureDate.utcOffset),
                LivePhotoPairing.identifier(of: still.photo))
    }

    /// The photo at `path` as its handler reads it (nothing decoded, nothing turned), and that handler.
    /// A link is never read for it: the still must be a file of the folder itself.
    private func still(at path: String) -> (photo: Photo, handler: any PhotoFormatHandler)? {
        guard let info = SourcePath.status(path, followingLinks: false), info.st_mode & S_IFMT == S_IFREG else { return nil }
        let source = SourceFile(path: path, info: info)
        let sink = StillSink()
        do {
            let input = try SourceInput.sniffing(source)
            guard let handler = LivePhotoPairing.stillHandlers.first(where: { $0.canRead(head: input.head) }) else {
                return nil
            }
            try handler.read(input, context: context, into: sink)
            return sink.photo.map { ($0, handler) }
        } catch {
            return nil
        }
    }

    private static func identifier(of photo: Photo) -> String? {
        photo.contentIdentifier
    }

    /// A still filed before with Apple's content identifier `identifier`, from any folder.
    private func filedEarlier(identifier: String) -> String? {
        guard let index = context.index, let filed = try? index.filedFiles(contentIdentifier: identifier) else { return nil }
        for file in filed where LivePhotoPairing.isStill(file.path) {
            let parts = file.path.split(separator: "/", maxSplits: 2)
            if parts.count == 3, parts[2].hasPrefix("photos/") { return String(parts[2]) }
        }
        return nil
    }

    /// A still imported from this folder before, by the movie's name with a photo's extension.
    private func filedEarlier(folder: String, stem: String, extensions: [String] = LivePhotoPairing.stillExtensions.sorted())
        -> String? {
        guard let index = context.index else { return nil }
        let names = extensions.flatMap { [$0, $0.uppercased()] }.map { "\(folder)/\(stem).\($0)" }
        guard let found = try? index.importedSources(atAnyOf: names) else { return nil }
        // Each name's last row, in the order of the names.
        for name in names {
            guard let earlier = found.last(where: { $0.path == name }) else { continue }
            // `pets/leo/photos/2024/...heic`: the part inside the subject's folder.
            let parts = earlier.filedPath.split(separator: "/", maxSplits: 2)
            if parts.count == 3, parts[2].hasPrefix("photos/") { return String(parts[2]) }
        }
        return nil
    }

    /// The photos in each folder a run's movies come from, listed once a run.
    final class FolderStills: Sendable {
        struct Candidate: Sendable {
            let path: String
            let stem: String
        }

        /// Only the photos this run takes (`PipelineContext.sourcesInRun`), when it says.
        let sourcesInRun: Set<String>?

        init(sourcesInRun: Set<String>?) {
            self.sourcesInRun = sourcesInRun
        }

        private let listed = Mutex<[String: [Candidate]]>([:])
        private let identified = Mutex<[String: [String: String]]>([:])

        /// Each still's content identifier in the folder, read once a run: a folder of thousands of
        /// photos is read once, not once for each movie in it.
        func identifiers(in folder: String, reading identifier: (String) -> String?) -> [String: String] {
            if let known = identified.withLock({ $0[folder] }) { return known }
            var found: [String: String] = [:]
            for candidate in stills(in: folder) where LivePhotoPairing.isStill(candidate.path) {
                if let id = identifier(candidate.path), found[id] == nil { found[id] = candidate.path }
            }
            identified.withLock { $0[folder] = found }
            return found
        }

        func stills(in folder: String) -> [Candidate] {
            if let known = listed.withLock({ $0[folder] }) { return known }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            let found = names.sorted().compactMap { name -> Candidate? in
                let ext = (name as NSString).pathExtension
                guard LivePhotoPairing.photoExtensions.contains(ext.lowercased()),
                      sourcesInRun?.contains("\(folder)/\(name)") ?? true
                else { return nil }
                return Candidate(path: "\(folder)/\(name)", stem: (name as NSString).deletingPathExtension)
            }
            listed.withLock { $0[folder] = found }
            return found
        }
    }

    /// Keeps the photo an importer hands over.
    private final class StillSink: ItemSink {
        var photo: Photo?
        func accept(_ item: consuming Item) throws {
            if case .photo(let photo) = item { self.photo = photo }
        }
        func report(_ problem: SourceProblem) {}
    }
}
