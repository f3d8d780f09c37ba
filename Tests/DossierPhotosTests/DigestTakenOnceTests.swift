import DossierCore
import DossierTestSupport
import Foundation
import Testing
@testable import DossierPhotos

/// A file filed as it is is hashed once, as it is read (`Photo.contentDigest`): the digest its
/// importer takes then is the one it is named and deduplicated by. It must be the digest of the
/// bytes filed, whichever importer took it and wherever the bytes are held.
@Suite("The digest an importer takes as it reads a file is the digest of the bytes filed")
struct DigestTakenOnceTests {
    @Test("A WebP, a TIFF and a DNG filed as they are carry the digest of their very bytes",
          arguments: ["picture.webp", "scan.tif", "photo.dng"])
    func filedAsTheyAre(_ name: String) throws {
        let bytes: [UInt8] = switch (name as NSString).pathExtension {
        case "webp": MoreFormatsTests.webp
        case "tif": MoreFormatsTests.exif().tiff
        default: MoreFormatsTests.exif(dng: true).tiff
        }
        let photo = try PhotoFiling.upright(bytes, path: "/dump/\(name)")
        #expect(photo.contentDigest == ContentDigest(of: bytes))
        #expect(photo.contentDigest == photo.content.digest)
        #expect(photo.contentDigest == photo.sourceDigest)
    }

    @Test("A large file filed as it is, copied to a scratch file, carries the digest of its bytes too")
    func largeFile() throws {
        let bytes = MoreFormatsTests.webp
        let photo = try PhotoFiling.upright(bytes, path: "/dump/picture.webp", asLarge: true)
        #expect(photo.contentDigest == ContentDigest(of: bytes))
        #expect(photo.contentDigest == photo.content.digest)
    }

    @Test("A JPEG the orient transform turns is known by the digest of its upright bytes, not its source's")
    func turnedJPEG() throws {
        var exif = ExifFixture()
        exif.orientation = 6
        let bytes = try TestJPEG.encode(.smooth(width: 32, height: 16), hSamp: 2, vSamp: 2, app1: exif.app1Payload)
        let photo = try PhotoFiling.upright(bytes, path: "/dump/IMG_0001.JPG")
        #expect(photo.sourceDigest == ContentDigest(of: bytes))
        #expect(photo.contentDigest != photo.sourceDigest)
        #expect(photo.contentDigest == photo.content.digest)
    }
}
