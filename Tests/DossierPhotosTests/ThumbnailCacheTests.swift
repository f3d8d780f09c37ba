import DossierCore
import DossierTestSupport
import Foundation
import Testing
@testable import DossierPhotos

/// The report's thumbnails: made once per photo's content, upright, 320 pixels on their longest
/// side, written whole through the library's file system.
@Suite("Thumbnails are made once per photo, upright and small, and never written through a link")
struct ThumbnailCacheTests {
    let folder: TemporaryFolder
    let cache: ThumbnailCache

    init() throws {
        folder = try TemporaryFolder()
        cache = ThumbnailCache(layout: LibraryLayout(root: folder.url))
    }

    /// Files `bytes` at `path` in the test library; returns its SHA-256.
    @discardableResult
    func file(_ bytes: [UInt8], at path: String) throws -> String {
        try folder.write(bytes, to: path)
        return ContentDigest(of: bytes).hex
    }

    func thumbnail(at relativePath: String) throws -> TestPicture {
        try TestJPEG.decode(Array(try Data(contentsOf: folder.url.appendingPathComponent(relativePath))))
    }

    /// A downscale by the exact area each thumbnail pixel covers, in doubles: what a careful
    /// resampler gives, to compare the thumbnail's pixels with.
    static func areaDownscale(_ picture: TestPicture, width: Int, height: Int) -> TestPicture {
        func weights(_ source: Int, _ target: Int) -> [[(Int, Double)]] {
            let ratio = Double(source) / Double(target)
            return (0..<target).map { out in
                let start = Double(out) * ratio, end = Double(out + 1) * ratio
                return (Int(start)..<min(source, Int(end.rounded(.up)))).map { index in
                    (index, (min(end, Double(index + 1)) - max(start, Double(index))) / ratio)
                }
            }
        }
        let across = weights(picture.width, width), down = weights(picture.height, height)
        var rows = [Double](repeating: 0, count: width * picture.height * 3)
        picture.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<picture.height {
                for x in 0..<width {
                    for (index, weight) in across[x] {
                        for channel in 0..<3 {
                            rows[(y * width + x) * 3 + channel] += weight * Double(pixels[(y * picture.width + index) * 3 + channel])
                        }
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 {
                    let sum = down[y].reduce(0.0) { $0 + $1.1 * rows[($1.0 * width + x) * 3 + channel] }
                    out[(y * width + x) * 3 + channel] = UInt8(clamping: Int(sum.rounded()))
                }
            }
        }
        return TestPicture(width: width, height: height, channels: 3, pixels: out)
    }

    /// The marker segments before the scan (`0xFFE1` is EXIF's APP1).
    static func markers(_ jpeg: [UInt8]) -> [UInt8] {
        var markers: [UInt8] = []
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF, jpeg[at + 1] != 0xDA {
            markers.append(jpeg[at + 1])
            at += 2 + (Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3]))
        }
        return markers
    }

    @Test("A 4000x3000 JPEG gives a 320x240 thumbnail whose pixels match a careful downscale of the photo, with no metadata")
    func twelveMegapixels() throws {
        let picture = TestPicture.smooth(width: 4000, height: 3000)
        let jpeg = try TestJPEG.encode(picture, quality: 95, hSamp: 2, vSamp: 2, app1: ExifFixture().app1Payload)
        let sha = try file(jpeg, at: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg")
        let path = try #require(try cache.thumbnail(ofPhotoAt: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg", sha256: sha))
        #expect(path == ".dossier/thumbs/\(sha.prefix(2))/\(sha)-320.jpg")
        let thumbnail = try thumbnail(at: path)
        #expect((thumbnail.width, thumbnail.height) == (320, 240))
        let reference = ThumbnailCacheTests.areaDownscale(picture, width: 320, height: 240)
        // 34.5 dB is what encoding the reference itself at quality 80 keeps.
        #expect(thumbnail.psnr(against: reference) > 32)
        let bytes = Array(try Data(contentsOf: folder.url.appendingPathComponent(path)))
        #expect(!ThumbnailCacheTests.markers(bytes).contains(0xE1), "no EXIF")
        #expect(!ThumbnailCacheTests.markers(bytes).contains(0xE2), "no ICC profile")
    }

    @Test("A HEIC's sideways rendition (EXIF Orientation 6) gives an upright thumbnail")
    func sidewaysRendition() throws {
        let stored = TestPicture.smooth(width: 480, height: 640)
        var exif = ExifFixture()
        exif.orientation = 6
        let rendition = try TestJPEG.encode(stored, quality: 95, hSamp: 1, vSamp: 1, app1: exif.app1Payload)
        let heic = Array("not read: its rendition is".utf8)
        let sha = try file(heic, at: "children/mina/photos/2024/2024-06-14_174208_c13ac4a5.heic")
        try file(rendition, at: "children/mina/photos/2024/2024-06-14_174208_c13ac4a5.jpg")
        let path = try #require(try cache.thumbnail(ofPhotoAt: "children/mina/photos/2024/2024-06-14_174208_c13ac4a5.heic", sha256: sha))
        let thumbnail = try thumbnail(at: path)
        let upright = stored.turnedUpright(for: 6)
        #expect((thumbnail.width, thumbnail.height) == (320, 240))
        #expect(thumbnail.psnr(against: ThumbnailCacheTests.areaDownscale(upright, width: 320, height: 240)) > 30)
        // Turned the other way it would be far off.
        let wrongWay = ThumbnailCacheTests.areaDownscale(stored.turnedUpright(for: 8), width: 320, height: 240)
        #expect(thumbnail.psnr(against: wrongWay) < 20)
    }

    @Test("A HEIC whose rendition is missing gives an error naming the rendition")
    func renditionMissing() throws {
        let sha = try file(Array("heic".utf8), at: "pets/leo/photos/2024/2024-06-14_174208_c13ac4a5.heic")
        #expect(throws: ThumbnailError.renditionMissing(path: "pets/leo/photos/2024/2024-06-14_174208_c13ac4a5.heic",
                                                        rendition: "pets/leo/photos/2024/2024-06-14_174208_c13ac4a5.jpg")) {
            try cache.thumbnail(ofPhotoAt: "pets/leo/photos/2024/2024-06-14_174208_c13ac4a5.heic", sha256: sha)
        }
    }

    @Test("The second call finds the thumbnail made and writes nothing: same inode, same modification time")
    func cacheHit() throws {
        let jpeg = try TestJPEG.encode(.smooth(width: 800, height: 600), hSamp: 2, vSamp: 2)
        let sha = try file(jpeg, at: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg")
        let path = try #require(try cache.thumbnail(ofPhotoAt: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg", sha256: sha))
        let before = try FileManager.default.attributesOfItem(atPath: folder.path(path))
        Thread.sleep(forTimeInterval: 0.02)
        let again = try cache.thumbnail(ofPhotoAt: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg", sha256: sha)
        let after = try FileManager.default.attributesOfItem(atPath: folder.path(path))
        #expect(again == path)
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path(ThumbnailCache.stagingPath)).isEmpty)
    }

    @Test("Thumbnails are staged in the cache's own folder: with the library's staging gone (an import clears it), every one is made")
    func stagedApartFromTheLibrarysStaging() throws {
        // A file where the library's staging folder would be: anything staged there fails.
        try folder.write([1, 2, 3], to: ".dossier/staging")
        let photos = try (0..<3).map { seed in
            let path = "pets/leo/photos/2024/2024-03-0\(seed + 1)_141503_1a2b3c4\(seed).jpg"
            return (path: path, sha256: try file(try TestJPEG.encode(.smooth(width: 640 + seed * 8, height: 480), hSamp: 2, vSamp: 2), at: path))
        }
        let results = cache.thumbnails(ofPhotos: photos)
        for (photo, result) in zip(photos, results) {
            let made = try #require(try result.get(), "\(photo.path)")
            #expect(made == ThumbnailCache.relativePath(sha256: photo.sha256))
            #expect(try thumbnail(at: made).width == 320)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path(ThumbnailCache.stagingPath)).isEmpty)
    }

    @Test("A staged thumbnail a killed report left is removed by the next report once a day old; a younger one may be another's and stays")
    func abandonedStagedThumbnailsAreRemoved() throws {
        try folder.write([0xFF, 0xD8, 0], to: "\(ThumbnailCache.stagingPath)/old.thumbnail.part")
        try folder.write([0xFF, 0xD8, 1], to: "\(ThumbnailCache.stagingPath)/young.thumbnail.part")
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-25 * 3600)],
                                              ofItemAtPath: folder.path("\(ThumbnailCache.stagingPath)/old.thumbnail.part"))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-23 * 3600)],
                                              ofItemAtPath: folder.path("\(ThumbnailCache.stagingPath)/young.thumbnail.part"))
        _ = cache.thumbnails(ofPhotos: [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path(ThumbnailCache.stagingPath)) == ["young.thumbnail.part"])
    }

    @Test("A thumbnail a crash left cut short is made again")
    func cutShortMadeAgain() throws {
        let jpeg = try TestJPEG.encode(.smooth(width: 800, height: 600), hSamp: 2, vSamp: 2)
        let sha = try file(jpeg, at: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg")
        let path = try #require(try cache.thumbnail(ofPhotoAt: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg", sha256: sha))
        let whole = try Data(contentsOf: folder.url.appendingPathComponent(path))
        try whole.prefix(whole.count / 2).write(to: folder.url.appendingPathComponent(path))
        #expect(try cache.thumbnail(ofPhotoAt: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg", sha256: sha) == path)
        #expect(try Data(contentsOf: folder.url.appendingPathComponent(path)) == whole)
    }

    @Test("A truncated JPEG gives an error naming the file, and no thumbnail")
    func truncated() throws {
        let jpeg = try TestJPEG.encode(.smooth(width: 800, height: 600), hSamp: 2, vSamp: 2)
        let cut = Array(jpeg.prefix(jpeg.count * 2 / 3))
        let sha = try file(cut, at: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg")
        do {
            _ = try cache.thumbnail(ofPhotoAt: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg", sha256: sha)
            Issue.record("a thumbnail of a truncated JPEG")
        } catch {
            guard case .undecodable(let path, let reason) = error else { Issue.record("\(error)"); return }
            #expect(path == "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg")
            #expect(error.description.hasPrefix("pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg: "))
            #expect(reason.contains("Premature end"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path(ThumbnailCache.relativePath(sha256: sha))))
    }

    @Test("A damaged PNG declaring 2^31 x 2^31 pixels gives an error naming the file, never a crash of the report")
    func pngDeclaringHugeSize() throws {
        let side: [UInt8] = [0x80, 0, 0, 0]
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + side + side
            + [8, 2, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 64)
        let path = "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.png"
        let sha = try file(png, at: path)
        do {
            _ = try cache.thumbnail(ofPhotoAt: path, sha256: sha)
            Issue.record("a thumbnail of a PNG of 2^62 pixels")
        } catch {
            guard case .undecodable(let named, _) = error else { Issue.record("\(error)"); return }
            #expect(named == path)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path(ThumbnailCache.relativePath(sha256: sha))))
    }

    @Test("A link where the thumbnail goes is replaced, never followed; a linked thumbs folder is refused")
    func linksNeverFollowed() throws {
        let outside = try TemporaryFolder()
        let victim = try outside.write("someone else's file", to: "victim.txt")
        let jpeg = try TestJPEG.encode(.smooth(width: 800, height: 600), hSamp: 2, vSamp: 2)
        let sha = try file(jpeg, at: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg")
        let target = folder.path(ThumbnailCache.relativePath(sha256: sha))
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: victim)

        let path = try cache.thumbnail(ofPhotoAt: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg", sha256: sha)
        #expect(path != nil)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "someone else's file")
        #expect(try FileManager.default.attributesOfItem(atPath: target)[.type] as? FileAttributeType == .typeRegular)

        // The whole cache folder a link elsewhere: refused, and nothing lands there.
        try FileManager.default.removeItem(atPath: folder.path(".dossier/thumbs"))
        try FileManager.default.createSymbolicLink(atPath: folder.path(".dossier/thumbs"), withDestinationPath: outside.path)
        #expect(throws: ThumbnailError.self) {
            try cache.thumbnail(ofPhotoAt: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg", sha256: sha)
        }
        #expect(outside.files(under: ".") == ["victim.txt"])
    }

    @Test("Many thumbnails made at once, the same photo among them twice, are whole and the same bytes")
    func atOnce() throws {
        let jpeg = try TestJPEG.encode(.smooth(width: 1200, height: 900), hSamp: 2, vSamp: 2)
        let sha = try file(jpeg, at: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg")
        try file(jpeg, at: "pets/rex/photos/2024/2024-03-02_141503_1a2b3c4d.jpg")
        let png = try TestPNG.encode(.smooth(width: 640, height: 320), format: .init(colorType: 2, bitDepth: 8, interlaced: false))
        let pngSha = try file(png, at: "pets/rex/photos/2024/2024-03-03_101010_00aa11bb.png")
        let movieSha = try file(Array("sound".utf8), at: "pets/rex/audio/2024/2024-03-03_101010_00aa11cc.m4a")
        let filed = [
            FiledFile(path: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg", subject: "pets/leo", sha256: sha, sourceSha256: nil,
                      size: Int64(jpeg.count), capturedAt: nil, filedAt: "2026-11-26T00:00:00Z"),
            FiledFile(path: "pets/rex/photos/2024/2024-03-02_141503_1a2b3c4d.jpg", subject: "pets/rex", sha256: sha, sourceSha256: nil,
                      size: Int64(jpeg.count), capturedAt: nil, filedAt: "2026-11-26T00:00:00Z"),
            FiledFile(path: "pets/rex/photos/2024/2024-03-03_101010_00aa11bb.png", subject: "pets/rex", sha256: pngSha,
                      sourceSha256: nil, size: Int64(png.count), capturedAt: nil, filedAt: "2026-11-26T00:00:00Z"),
            FiledFile(path: "pets/rex/audio/2024/2024-03-03_101010_00aa11cc.m4a", subject: "pets/rex", sha256: movieSha,
                      sourceSha256: nil, size: 5, capturedAt: nil, filedAt: "2026-11-26T00:00:00Z"),
        ]
        let results = cache.thumbnails(of: filed).map { try? $0.get() }
        #expect(results[0] == ThumbnailCache.relativePath(sha256: sha))
        #expect(results[1] == ThumbnailCache.relativePath(sha256: sha))
        #expect(results[2] == ThumbnailCache.relativePath(sha256: pngSha))
        #expect(results[3] == .some(nil), "sound has no thumbnail")
        let made = try thumbnail(at: ThumbnailCache.relativePath(sha256: sha))
        #expect((made.width, made.height) == (320, 240))
        let pngThumbnail = try thumbnail(at: ThumbnailCache.relativePath(sha256: pngSha))
        #expect((pngThumbnail.width, pngThumbnail.height) == (320, 160))

        // Made again elsewhere, the same bytes: two reports at once cannot disagree.
        let other = try TemporaryFolder()
        try other.write(jpeg, to: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg")
        let again = ThumbnailCache(layout: LibraryLayout(root: other.url))
        _ = try again.thumbnail(ofPhotoAt: "pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg", sha256: sha)
        #expect(try Data(contentsOf: other.url.appendingPathComponent(ThumbnailCache.relativePath(sha256: sha)))
            == Data(contentsOf: folder.url.appendingPathComponent(ThumbnailCache.relativePath(sha256: sha))))
    }

    @Test("A video's thumbnail is its first frame, upright, where ffmpeg is installed; a damaged one gives an error naming it",
          .enabled(if: VideoPoster.ffmpeg != nil))
    func videoPoster() throws {
        func ffmpeg(_ arguments: [String]) throws {
            let ffmpeg = Process()
            ffmpeg.executableURL = URL(fileURLWithPath: try #require(VideoPoster.ffmpeg))
            ffmpeg.arguments = ["-v", "error"] + arguments
            try ffmpeg.run()
            ffmpeg.waitUntilExit()
            try #require(ffmpeg.terminationStatus == 0)
        }
        // Stored 640x360, shown a quarter turn round (its display matrix, which ffmpeg 5 writes only
        // when copying a stream): 180x320 upright.
        try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=640x360:rate=10", "-t", "1", "-c:v", "mpeg4", folder.path("plain.mp4")])
        let made = folder.path("made.mov")
        try ffmpeg(["-i", folder.path("plain.mp4"), "-c", "copy", "-metadata:s:v:0", "rotate=90", made])
        let movie = Array(try Data(contentsOf: URL(fileURLWithPath: made)))
        let sha = try file(movie, at: "pets/leo/videos/2024/2024-03-02_141503_1a2b3c4d.mov")
        let path = try #require(try cache.thumbnail(ofPhotoAt: "pets/leo/videos/2024/2024-03-02_141503_1a2b3c4d.mov", sha256: sha))
        let poster = try thumbnail(at: path)
        #expect((poster.width, poster.height) == (180, 320))

        let damaged = Array(movie.prefix(200))
        let damagedSha = try file(damaged, at: "pets/leo/videos/2024/2024-03-02_141504_2a2b3c4d.mp4")
        #expect(throws: ThumbnailError.self) {
            try cache.thumbnail(ofPhotoAt: "pets/leo/videos/2024/2024-03-02_141504_2a2b3c4d.mp4", sha256: damagedSha)
        }
    }
}
