import DossierCore
@testable import DossierReport
import Testing

@Suite("Paths in a page's links lead to the files they name")
struct HTMLTests {
    @Test("A name that is not UTF-8 (CP949 bytes) is linked by its bytes on the disk, percent-encoded")
    func nonUTF8NameIsLinkedByItsBytes() {
        let name = SourcePath.string(fromFileSystem: Array("2024-05-01_000000_".utf8) + [0xB7, 0xB9, 0xBF, 0xC0] + Array(".mp4".utf8))
        #expect(HTML.url("../../../pets/leo/videos/2024/" + name)
            == "../../../pets/leo/videos/2024/2024-05-01_000000_%B7%B9%BF%C0.mp4")
    }

    @Test("Spaces, #, ?, %, quotes, newlines and Hangul are percent-encoded as UTF-8")
    func reservedCharactersAreEncoded() {
        #expect(HTML.url("a#b?c%d e\"<\n레오.jpg") == "a%23b%3Fc%25d%20e%22%3C%0A%EB%A0%88%EC%98%A4.jpg")
    }
}
