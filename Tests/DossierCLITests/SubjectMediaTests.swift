@testable import DossierReport
import Testing

@Suite("The report's timeline pairs a photo with its rendition and movie")
struct SubjectMediaTests {
    static let year = "pets/leo/photos/2024"
    static let names = ["2024-03-02_141503_1a2b3c4d.heic", "2024-03-02_141503_1a2b3c4d.jpg", "2024-03-02_141503_1a2b3c4d.mov"]

    static func group(_ names: [String], showable: Bool) -> [FiledMedia] {
        SubjectMedia.group(names, in: year, folder: "photos") { _, _ in showable }
    }

    @Test("A HEIC is shown by the JPEG the index names as its rendition, with its Live Photo movie")
    func indexedRenditionIsShown() {
        let media = SubjectMedia.group(SubjectMediaTests.names, in: SubjectMediaTests.year, folder: "photos") { picture, photo in
            picture == "\(SubjectMediaTests.year)/2024-03-02_141503_1a2b3c4d.jpg"
                && photo == "\(SubjectMediaTests.year)/2024-03-02_141503_1a2b3c4d.heic"
        }
        #expect(media == [FiledMedia(kind: .photo, shown: "\(SubjectMediaTests.year)/2024-03-02_141503_1a2b3c4d.jpg",
                                     original: "\(SubjectMediaTests.year)/2024-03-02_141503_1a2b3c4d.heic",
                                     movie: "\(SubjectMediaTests.year)/2024-03-02_141503_1a2b3c4d.mov",
                                     stamp: "2024-03-02_141503")])
    }

    @Test("A file that only has a rendition's name, which the index does not know, is never shown as the photo")
    func strayFileWithARenditionsNameIsNotShown() {
        let media = SubjectMediaTests.group(SubjectMediaTests.names, showable: false)
        #expect(media == [FiledMedia(kind: .photo, shown: nil,
                                     original: "\(SubjectMediaTests.year)/2024-03-02_141503_1a2b3c4d.heic",
                                     movie: "\(SubjectMediaTests.year)/2024-03-02_141503_1a2b3c4d.mov",
                                     stamp: "2024-03-02_141503")])
    }

    @Test("A picture alone is shown, whether or not the index knows it")
    func aPictureAloneIsShown() {
        let media = SubjectMediaTests.group(["2024-03-02_141503_1a2b3c4d.png"], showable: false)
        #expect(media.map(\.shown) == ["\(SubjectMediaTests.year)/2024-03-02_141503_1a2b3c4d.png"])
    }

    @Test("Without an index, a photo and its rendition are paired by their shared name")
    func withoutAnIndexNamesPair() {
        let media = SubjectMedia.group(Array(SubjectMediaTests.names.prefix(2)), in: SubjectMediaTests.year, folder: "photos")
        #expect(media.map(\.shown) == ["\(SubjectMediaTests.year)/2024-03-02_141503_1a2b3c4d.jpg"])
        #expect(media.map(\.original) == ["\(SubjectMediaTests.year)/2024-03-02_141503_1a2b3c4d.heic"])
    }
}
