import CImageShims
import DossierCore
import Foundation
import Synchronization

/// Thumbnails of filed photos, for the report's pages: cached by the photo's content under
/// `.dossier/thumbs/` (`.dossier/thumbs/ab/<sha256>-320.jpg`), so a photo moved, re-filed or
/// shared by two subjects is made once, and a second report finds every one made.
///
/// A thumbnail is a baseline 4:4:4 JPEG of quality 80, its longest side 320 pixels (never larger than
/// the photo), upright, with no metadata. It is made from the filed photo, or from its rendition
/// where browsers cannot show the photo (a HEIC, a TIFF, a raw). JPEGs are decoded at libjpeg's
/// reduced scales (1/8 of a 12-megapixel photo is 500x375) and averaged down from there: less
/// CPU and memory than libvips' `vips_thumbnail` here (docs/performance.md). PNGs are decoded
/// by libpng; WebP and GIF by libvips, when it is installed. A video's is its first frame, by
/// ffmpeg where it is installed (`VideoPoster`); without ffmpeg, and for sound, there is none
/// (nil), and the report shows an icon.
///
/// A thumbnail is written whole under another name and renamed into place, through the
/// library's `LibraryFileSystem` (no link is followed; one where the thumbnail goes is replaced).
/// It is staged in the cache's own `.dossier/thumbs/.staging`, not the library's staging: a
/// report takes no lock, and an import starting meanwhile clears the library's staging.
/// Two reports at once make the same bytes, so whichever rename comes last changes nothing a
/// reader sees. It is a cache, not the library's data: nothing is fsynced (two syncs a photo
/// would cost more than making it), and a thumbnail a crash left cut short or unwritten is
/// known by its ends (`isWhole`) and made again.
public struct ThumbnailCache: Sendable {
    /// The longest side of every thumbnail, in pixels (and in its name).
    public static let longestSide = 320
    /// libjpeg's quality scale: small files that still look sharp at 320 pixels.
    static let quality = 80

    public let layout: LibraryLayout
    private let formats: PhotoFormats

    /// The cache of the library at `layout`; the formats come from its layout, else the photos
    /// plugin's.
    public init(layout: LibraryLayout) {
        self.layout = layout
        formats = layout.photoFormats.all.isEmpty ? PhotoFormats(Plugin.photos.photoFormats) : layout.photoFormats
    }

    /// Where the thumbnail of the photo whose bytes hash to `sha256` (lower-case hex) is cached,
    /// relative to the library: `.dossier/thumbs/ab/<sha256>-320.jpg`.
    /// Where thumbnails (and the scratch files of photos too large for memory) are made before
    /// they are renamed into place, relative to the library.
    public static let stagingPath = ".dossier/thumbs/.staging"

    /// A staged thumbnail older than this was left by a report that was killed: removed when the
    /// next report starts. Younger ones may be another report's, under way.
    static let abandonedAfter: TimeInterval = 24 * 3600

    public static func relativePath(sha256: String) -> String {
        ".dossier/thumbs/\(sha256.prefix(2))/\(sha256)-\(longestSide).jpg"
    }

    /// The thumbnail of a filed file, made now if it is not cached: its path relative to the
    /// library, or nil for a file that has none (sound, a sidecar; a video without ffmpeg, WebP
    /// and GIF without libvips).
    public func thumbnail(of file: FiledFile) throws(ThumbnailError) -> String? {
        try thumbnail(ofPhotoAt: file.path, sha256: file.sha256)
    }

    /// The thumbnail of the photo filed at `path` (relative to the library) whose bytes hash to
    /// `sha256` (the index's `FiledFile.sha256`), made now if it is not cached.
    public func thumbnail(ofPhotoAt path: String, sha256: String) throws(ThumbnailError) -> String? {
        guard sha256.count == 64, sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw .library(path: path, .pathOutsideLibrary(ThumbnailCache.relativePath(sha256: sha256)))
        }
        let relative = ThumbnailCache.relativePath(sha256: sha256)
        let files = layout.files
        let target = try absolute(relative, for: path)
        if isWhole(target) { return relative }
        let format = formats.format(forExtension: (path as NSString).pathExtension)
        let source = try ThumbnailSource.of(path, format: format) { candidate in
            (try? layout.url(forRelativePath: candidate).path).map(files.isFile) ?? false
        }
        guard let bytes = try made(from: source) else { return nil }
        try store(bytes, at: target, for: path)
        return relative
    }

    /// The thumbnails of many files, on every core: one result per file, in their order.
    public func thumbnails(of files: [FiledFile]) -> [Result<String?, ThumbnailError>] {
        thumbnails(ofPhotos: files.map { ($0.path, $0.sha256) })
    }

    /// The thumbnails of many photos filed at `path` with bytes hashing to `sha256`, on every
    /// core (the blocking executor's threads): one result per photo, in their order.
    public func thumbnails(ofPhotos photos: [(path: String, sha256: String)]) -> [Result<String?, ThumbnailError>] {
        layout.files.removeFilesLeft(in: stagingFolder, olderThan: ThumbnailCache.abandonedAfter)
        let results = Mutex([Result<String?, ThumbnailError>](repeating: .success(nil), count: photos.count))
        BlockingWork.concurrentlyForEach(photos.count) { index in
            let result: Result<String?, ThumbnailError>
            do throws(ThumbnailError) {
                result = .success(try thumbnail(ofPhotoAt: photos[index].path, sha256: photos[index].sha256))
            } catch {
                result = .failure(error)
            }
            results.withLock { $0[index] = result }
        }
        return results.withLock { $0 }
    }

    // MARK: The cache

    private var stagingFolder: String { "\(layout.files.root)/\(ThumbnailCache.stagingPath)" }

    private func absolute(_ relative: String, for path: String) throws(ThumbnailError) -> String {
        do throws(LibraryError) {
            return try layout.url(forRelativePath: relative).path
        } catch {
            throw .library(path: path, error)
        }
    }

    /// Whether a regular file (not a link) is at `target` and begins and ends as a JPEG does:
    /// a thumbnail a crash left empty or cut short does not.
    private func isWhole(_ target: String) -> Bool {
        guard let descriptor = try? layout.files.openForReading(target) else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= 4 else { return false }
        var start = [UInt8](repeating: 0, count: 2), end = [UInt8](repeating: 0, count: 2)
        guard pread(descriptor, &start, 2, 0) == 2, pread(descriptor, &end, 2, info.st_size - 2) == 2 else { return false }
        return start == [0xFF, 0xD8] && end == [0xFF, 0xD9]
    }

    /// Writes the thumbnail under a name of its own in staging, then renames it into place.
    private func store(_ bytes: [UInt8], at target: String, for path: String) throws(ThumbnailError) {
        let files = layout.files
        let staging = stagingFolder
        let staged = "\(staging)/\(UUID().uuidString).thumbnail.part"
        do throws(LibraryError) {
            if try files.entryType(staging) == nil { try files.createFolders(staging) }
            try files.writeNewFile(bytes, at: staged, sync: false)
            try files.rename(staged, replacing: target, sync: false)
        } catch {
            try? files.remove(staged)
            throw .library(path: path, error)
        }
    }

    // MARK: Making one

    private func made(from source: ThumbnailSource) throws(ThumbnailError) -> [UInt8]? {
        switch source {
        case .none: return nil
        case .jpeg(let path): return try fromJPEG(at: path)
        case .png(let path): return try fromPNG(at: path)
        case .vips(let path): return VipsCodec.unavailableReason == nil ? try fromVips(at: path) : nil
        case .video(let path): return try poster(of: path)
        }
    }

    private func poster(of path: String) throws(ThumbnailError) -> [UInt8]? {
        guard VideoPoster.ffmpeg != nil else { return nil }
        let absolutePath = try absolute(path, for: path)
        let descriptor: Int32
        do throws(LibraryError) { descriptor = try layout.files.openForReading(absolutePath) } catch { throw .library(path: path, error) }
        defer { close(descriptor) }
        return try VideoPoster.poster(of: descriptor, path: path, longest: ThumbnailCache.longestSide, quality: ThumbnailCache.quality)
    }

    /// What decoding a JPEG at a reduced scale holds: a baseline JPEG is decoded a few rows at a
    /// time, but a progressive one keeps every coefficient (2 bytes a sample) until its last scan.
    /// Past the large-photo limit those go to scratch files in the cache's staging, as an
    /// import's turn does in the library's.
    private func fromJPEG(at path: String) throws(ThumbnailError) -> [UInt8] {
        let absolutePath = try absolute(path, for: path)
        let descriptor: Int32
        do throws(LibraryError) { descriptor = try layout.files.openForReading(absolutePath) } catch { throw .library(path: path, error) }
        defer { close(descriptor) }
        var info = dossier_jpeg_info()
        var status = dossier_status()
        guard dossier_jpeg_read_info_file(descriptor, &info, &status) == 0 else {
            throw .undecodable(path: path, reason: status.error(format: "JPEG").description)
        }
        let pixels = Int(info.width) * Int(info.height)
        let large = info.progressive != 0 && pixels > LargePhoto.standard.pixels
        let reservation = info.progressive == 0 ? 0
            : large ? TurnMemoryBudget.largePhotoEstimate
            : TurnMemoryBudget.estimate(width: Int(info.width), height: Int(info.height), bytesPerPixel: 2 * Int(info.components))
        let made: Result<[UInt8], ThumbnailError> = TurnMemoryBudget.shared.withReservation(of: reservation) {
            let encode = { (scratchFolder: Int32) -> Result<[UInt8], ThumbnailError> in
                var output = dossier_buffer()
                var width: Int32 = 0, height: Int32 = 0
                var status = dossier_status()
                let code = dossier_jpeg_thumbnail_file(descriptor, scratchFolder, Int32(ThumbnailCache.longestSide),
                                                       Int32(ThumbnailCache.quality), &output, &width, &height, &status)
                let bytes = output.takeBytes()
                guard code == 0 else { return .failure(.undecodable(path: path, reason: status.error(format: "JPEG").description)) }
                return .success(bytes)
            }
            guard large else { return encode(-1) }
            do {
                let scratch = ScratchFolder.folder(stagingFolder, of: layout)
                if try layout.files.entryType(scratch.path) == nil { try layout.files.createFolders(scratch.path) }
                return try scratch.withOpenFolder { encode($0) }
            } catch let error as LibraryError {
                return .failure(.library(path: path, error))
            } catch {
                return .failure(.undecodable(path: path, reason: "\(error)"))
            }
        }
        return try made.get()
    }

    /// A PNG is decoded whole (3 bytes a pixel, and the rows' sums at the thumbnail's width).
    private func fromPNG(at path: String) throws(ThumbnailError) -> [UInt8] {
        let bytes = try read(path)
        // IHDR's width and height, big-endian, at 16 and 20: the reservation is taken before decoding.
        let side = { (at: Int) -> Int in bytes.count >= at + 4 ? bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } : 0 }
        let reservation = TurnMemoryBudget.estimate(width: side(16), height: side(20), bytesPerPixel: 4)
        let made = TurnMemoryBudget.shared.withReservation(of: reservation) {
            encoded(bytes, path, format: "PNG") { data, size, output, width, height, status in
                dossier_png_thumbnail(data, size, Int32(ThumbnailCache.longestSide), Int32(ThumbnailCache.quality), output,
                                      width, height, status)
            }
        }
        return try made.get()
    }

    private func fromVips(at path: String) throws(ThumbnailError) -> [UInt8] {
        let bytes = try read(path)
        var width: Int32 = 0, height: Int32 = 0
        var status = dossier_status()
        let sized = bytes.withUnsafeBufferPointer { dossier_vips_size($0.baseAddress, $0.count, nil, &width, &height, &status) }
        guard sized == 0 else { throw .undecodable(path: path, reason: status.error(format: "picture").description) }
        let reservation = TurnMemoryBudget.estimate(width: Int(width), height: Int(height), bytesPerPixel: VipsCodec.bytesPerPixel)
        let made = TurnMemoryBudget.shared.withReservation(of: reservation) {
            encoded(bytes, path, format: "picture") { data, size, output, width, height, status in
                dossier_vips_thumbnail(data, size, Int32(ThumbnailCache.longestSide), Int32(ThumbnailCache.quality), output,
                                       width, height, status)
            }
        }
        return try made.get()
    }

    private typealias Encoder = (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<dossier_buffer>, UnsafeMutablePointer<Int32>,
                                 UnsafeMutablePointer<Int32>, UnsafeMutablePointer<dossier_status>) -> Int32

    /// One of the shims' thumbnail makers over `bytes`.
    private func encoded(_ bytes: [UInt8], _ path: String, format: String, _ encoder: Encoder) -> Result<[UInt8], ThumbnailError> {
        var output = dossier_buffer()
        var width: Int32 = 0, height: Int32 = 0
        var status = dossier_status()
        let code = bytes.withUnsafeBufferPointer { encoder($0.baseAddress, $0.count, &output, &width, &height, &status) }
        let made = output.takeBytes()
        guard code == 0 else { return .failure(.undecodable(path: path, reason: status.error(format: format).description)) }
        return .success(made)
    }

    private func read(_ path: String) throws(ThumbnailError) -> [UInt8] {
        let absolutePath = try absolute(path, for: path)
        do throws(LibraryError) {
            return try layout.files.readFile(absolutePath)
        } catch {
            throw .library(path: path, error)
        }
    }
}
