import DossierCore
import Foundation
import DossierTestSupport
import Testing

/// A caption (a COM segment, an XMP description) or a colour profile may exist nowhere but in the
/// photo: a turn that dropped it would make two photos one filed file, and `--move` would then
/// remove both sources.
@Suite("A JPEG's captions survive its turn")
struct JPEGSegmentsSafetyTests {
    /// The JPEG with a COM segment holding `caption` right after its start-of-image marker.
    static func captioned(_ jpeg: [UInt8], _ caption: String) -> [UInt8] {
        let text = Array(caption.utf8)
        return Array(jpeg[..<2]) + [0xFF, 0xFE, UInt8((text.count + 2) >> 8), UInt8((text.count + 2) & 0xFF)] + text
            + Array(jpeg[2...])
    }

    /// The text of every COM segment before the first scan.
    static func comments(_ jpeg: [UInt8]) -> [String] {
        var found: [String] = []
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF, jpeg[position + 1] != 0xDA {
            let end = position + 2 + (Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3]))
            guard end <= jpeg.count else { break }
            if jpeg[position + 1] == 0xFE { found.append(String(decoding: jpeg[(position + 4)..<end], as: UTF8.self)) }
            position = end
        }
        return found
    }

    @Test("Two sideways photos that differ only in a caption, moved in, are filed as two files, each with its caption, and both sources are removed")
    func photosDifferingOnlyInACaptionAreFiledApart() throws {
        let folder = try TemporaryFolder()
        // 70x50 at 4:2:0 is not a whole number of MCUs high, so Orientation 6 is turned by
        // decoding and re-encoding the picture.
        let picture = SafetyFixtures.jpeg(width: 70, height: 50, orientation: 6, seed: 3)
        let captions = ["IMG_0001.jpg": "Rex at the beach", "IMG_0002.jpg": "Rex at the vet"]
        for (name, caption) in captions {
            try folder.write(JPEGSegmentsSafetyTests.captioned(picture, caption), to: "dump/pets/rex/\(name)")
        }

        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        #expect(result.outcomes.count == 2)
        var destinations: Set<String> = []
        for outcome in result.outcomes {
            let source = try #require(outcome["source"] as? String)
            let caption = try #require(captions[(source as NSString).lastPathComponent])
            #expect(outcome["status"] as? String == "imported", "\(outcome)")
            #expect(outcome["sourceRemoved"] as? Bool == true, "\(outcome)")
            #expect(!FileManager.default.fileExists(atPath: source))
            let destination = try #require(outcome["destination"] as? String)
            destinations.insert(destination)
            let filed = try #require(SafetyFixtures.contents(destination))
            #expect(JPEGSegmentsSafetyTests.comments(filed) == [caption], "\(destination)")
        }
        #expect(destinations.count == 2, "\(result.standardOutput)")
        #expect(folder.files(under: "Library/pets/rex/photos").filter { $0.hasSuffix(".jpg") }.count == 2)
    }
}
