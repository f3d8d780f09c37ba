import DossierCore
import DossierTestSupport
import Foundation
import Testing

@Suite("A photo's content digest")
struct PhotoContentDigestTests {
    static func photo(_ bytes: [UInt8], contentDigest: ContentDigest?) -> Photo {
        let source = SourceFile(path: "/dump/IMG_0001.PNG", size: Int64(bytes.count), modificationTime: 1_700_000_000_000_000_000)
        return Photo(source: source, format: .png, content: .memory(bytes), sourceDigest: ContentDigest(of: bytes), orientation: .up,
                     width: 0, height: 0, captureDate: CaptureDate(LocalDateTime(year: 2024, month: 5, day: 1)!, origin: .fileName),
                     exif: nil, contentDigest: contentDigest)
    }

    @Test("Is the digest its importer took as it read the bytes, until a transform replaces them; then the new bytes' own")
    func knownUntilReplaced() {
        let bytes = Array("PNG one picture".utf8)
        // A digest given with the bytes is taken as it is: the bytes are not hashed again.
        let given = ContentDigest(of: Array("what the importer hashed".utf8))
        var photo = PhotoContentDigestTests.photo(bytes, contentDigest: given)
        #expect(photo.contentDigest == given)
        let turned = Array("PNG another picture".utf8)
        photo.content = .memory(turned)
        #expect(photo.contentDigest == ContentDigest(of: turned))
    }

    @Test("Without one given (a plugin that makes several files of one source), the bytes are hashed")
    func hashedWhenNotGiven() {
        let bytes = Array("PNG one picture, and a half".utf8)
        #expect(PhotoContentDigestTests.photo(bytes, contentDigest: nil).contentDigest == ContentDigest(of: bytes))
    }
}
