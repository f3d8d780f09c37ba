import DossierCore
import DossierTestSupport
import Foundation
import Testing

/// The sidecars phones and editors leave beside photos: filed beside their photo, byte for byte,
/// never read as records, profiles or taxonomies.
@Suite("Sidecars are filed beside their photos")
struct SidecarImportTests {
    let folder: TemporaryFolder

    /// An iPhone's edit sidecar as iOS writes it (a photo cropped and given a filter).
    static func aae(filter: String = "com.apple.photo") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>adjustmentBaseVersion</key>
        \t<integer>0</integer>
        \t<key>adjustmentData</key>
        \t<data>
        \tbZBNa8MwDIb/i88hxE7S0dw6th4Gg5H2NnZQbaUxOLaR5Y1S+t/nLqXb0G7S8+jV
        \t</data>
        \t<key>adjustmentEditorBundleID</key>
        \t<string>com.apple.camera</string>
        \t<key>adjustmentFormatIdentifier</key>
        \t<string>\(filter)</string>
        \t<key>adjustmentFormatVersion</key>
        \t<string>1.4</string>
        </dict>
        </plist>

        """
    }

    /// An XMP sidecar as a photo manager writes it: a rating and a caption.
    static func xmp(rating: Int) -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="\(rating)"/>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>

        """
    }

    init() throws {
        folder = try TemporaryFolder()
    }

    func sample(_ path: String, to destination: String) throws {
        let bytes = Array(try Data(contentsOf: DossierBinary.packageRoot.appendingPathComponent("Samples/\(path)")))
        try folder.write(bytes, to: destination)
    }

    func outcome(_ result: DossierBinary.Result, _ name: String) throws -> [String: Any] {
        try #require(result.outcomes.first { ($0["source"] as? String)?.hasSuffix("/\(name)") ?? false }, "\(result.standardOutput)")
    }

    func destination(_ result: DossierBinary.Result, _ name: String) throws -> String {
        try #require(try outcome(result, name)["destination"] as? String)
    }

    func stem(_ path: String) -> String { (path as NSString).deletingPathExtension }

    @Test("An iPhone's .AAE beside its photo is filed beside it under its name, byte for byte, and adds no species")
    func aaeBesideItsPhoto() throws {
        try sample("pets/leo/IMG_0001.JPG", to: "dump/pets/leo/IMG_0001.JPG")
        let aae = try folder.write(SidecarImportTests.aae(), to: "dump/pets/leo/IMG_0001.AAE")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        let photo = try destination(result, "IMG_0001.JPG")
        let sidecar = try destination(result, "IMG_0001.AAE")
        #expect(sidecar == stem(photo) + ".aae")
        #expect(try outcome(result, "IMG_0001.AAE")["format"] as? String == "aae")
        #expect(try outcome(result, "IMG_0001.AAE")["dateFrom"] as? String == "photo")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sidecar)) == Data(contentsOf: URL(fileURLWithPath: aae)))
        // Never read as a taxonomy, a profile list or a log: no species, nothing kept as a source.
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/config/species.json")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/sources")))
    }

    @Test("XMP sidecars named IMG_0001.xmp and IMG_0001.JPG.xmp are both filed beside their photo, each whole")
    func xmpSidecars() throws {
        try sample("pets/leo/IMG_0001.JPG", to: "dump/pets/leo/IMG_0001.JPG")
        let short = try folder.write(SidecarImportTests.xmp(rating: 4), to: "dump/pets/leo/IMG_0001.xmp")
        let long = try folder.write(SidecarImportTests.xmp(rating: 5), to: "dump/pets/leo/IMG_0001.JPG.xmp")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        let photo = stem(try destination(result, "IMG_0001.JPG"))
        for (name, source) in [("IMG_0001.xmp", short), ("IMG_0001.JPG.xmp", long)] {
            let filed = try destination(result, name)
            #expect(filed.hasPrefix(photo) && filed.hasSuffix(".xmp"), "\(filed)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: filed)) == Data(contentsOf: URL(fileURLWithPath: source)))
        }
        #expect(try destination(result, "IMG_0001.xmp") != destination(result, "IMG_0001.JPG.xmp"))
    }

    @Test("A sidecar whose photo is neither beside it nor filed is skipped with the reason, and left as it was")
    func sidecarWithoutItsPhoto() throws {
        let aae = try folder.write(SidecarImportTests.aae(), to: "dump/pets/leo/IMG_0009.AAE")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json", "--move"], in: folder.url)
        // Left for a person: import it with its photo.
        #expect(result.status == 3, "\(result.standardOutput) \(result.standardError)")
        let skipped = try outcome(result, "IMG_0009.AAE")
        #expect(skipped["status"] as? String == "skipped")
        #expect(skipped["error"] as? String == "\(aae): iPhone edits (AAE) of a photo that is neither beside it nor filed from "
            + "its folder; it is left where it is: import it with its photo")
        #expect(FileManager.default.fileExists(atPath: aae))
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/config/species.json")))
        #expect(folder.files(under: "Library/pets").isEmpty)
    }

    @Test("Two photos whose .AAE files hold the same bytes (the same edit) each get their own, beside them")
    func sameEditTwice() throws {
        try sample("pets/leo/IMG_0001.JPG", to: "dump/pets/leo/IMG_0001.JPG")
        try sample("pets/leo/IMG_0002.JPG", to: "dump/pets/leo/IMG_0002.JPG")
        try folder.write(SidecarImportTests.aae(), to: "dump/pets/leo/IMG_0001.AAE")
        try folder.write(SidecarImportTests.aae(), to: "dump/pets/leo/IMG_0002.AAE")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        for number in ["0001", "0002"] {
            #expect(try outcome(result, "IMG_\(number).AAE")["status"] as? String == "imported")
            #expect(try destination(result, "IMG_\(number).AAE") == stem(try destination(result, "IMG_\(number).JPG")) + ".aae")
        }
    }

    @Test("A sidecar that comes after its photo was filed and moved away finds it through the index")
    func sidecarAfterItsPhoto() throws {
        try sample("pets/leo/IMG_0001.JPG", to: "dump/pets/leo/IMG_0001.JPG")
        let first = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json", "--move"], in: folder.url)
        #expect(first.status == 0, "\(first.standardError)")
        let photo = try destination(first, "IMG_0001.JPG")
        try folder.write(SidecarImportTests.aae(), to: "dump/pets/leo/IMG_0001.AAE")
        let second = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(try destination(second, "IMG_0001.AAE") == stem(photo) + ".aae")
    }

    @Test("A sidecar beside a HEIC stays a filed file of its own through index rebuild, never taken for a rendition")
    func sidecarBesideAHEICThroughRebuild() throws {
        try sample("children/mina/IMG_0712.HEIC", to: "dump/children/mina/IMG_0712.HEIC")
        try folder.write(SidecarImportTests.aae(), to: "dump/children/mina/IMG_0712.AAE")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        let sidecar = try destination(result, "IMG_0712.AAE")
        #expect(sidecar == stem(try destination(result, "IMG_0712.HEIC")) + ".aae")
        #expect(try DossierBinary.run(["index", "rebuild", "--library", "Library"], in: folder.url).status == 0)
        let layout = LibraryLayout(root: folder.url.appendingPathComponent("Library"))
        let index = try #require(try LibraryIndex.openReadOnly(layout))
        defer { index.close() }
        #expect(try index.filedFile(at: String(sidecar.dropFirst(layout.root.path.count + 1))) != nil)
    }

    @Test("A binary AAE, and one whose adjustment keys come after a long adjustmentData, are sidecars too: filed beside, no species")
    func everyAAEForm() throws {
        try sample("pets/leo/IMG_0001.JPG", to: "dump/pets/leo/IMG_0001.JPG")
        try sample("pets/leo/IMG_0002.JPG", to: "dump/pets/leo/IMG_0002.JPG")
        // Written by Foundation's own serialiser, as iOS writes them.
        let dictionary: [String: Any] = ["adjustmentBaseVersion": 0, "adjustmentData": Data(repeating: 0x78, count: 100),
                                         "adjustmentEditorBundleID": "com.apple.mobileslideshow",
                                         "adjustmentFormatIdentifier": "com.apple.photo", "adjustmentFormatVersion": "1.4"]
        let binary = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        try folder.write(Array(binary), to: "dump/pets/leo/IMG_0001.AAE")
        let long = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>adjustmentData</key>\n\t<data>\n"
            + String(repeating: "eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4\n", count: 80)
            + "\t</data>\n\t<key>adjustmentFormatIdentifier</key>\n\t<string>com.apple.photo</string>\n</dict>\n</plist>\n"
        try folder.write(long, to: "dump/pets/leo/IMG_0002.AAE")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json", "--move"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        for number in ["0001", "0002"] {
            #expect(try destination(result, "IMG_\(number).AAE") == stem(try destination(result, "IMG_\(number).JPG")) + ".aae")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/config/species.json")))
    }

    @Test("An XMP sidecar of a raw is filed beside the raw (IMG.NEF.xmp and IMG.xmp alike)")
    func sidecarOfARaw() throws {
        // IFD0: its Make, and SubIFDs (where a raw's data lies; here pointing nowhere).
        var raw = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 2, 0x01, 0x0F, 0, 2, 0, 0, 0, 18, 0, 0, 0, 38,
                                      0x01, 0x4A, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]
        raw += Array("NIKON CORPORATION".utf8) + [0] + (0..<2000).map { UInt8($0 % 251) }
        try folder.write(raw, to: "dump/pets/leo/DSC_0001.NEF")
        try folder.write(SidecarImportTests.xmp(rating: 3), to: "dump/pets/leo/DSC_0001.xmp")
        try folder.write(SidecarImportTests.xmp(rating: 5), to: "dump/pets/leo/DSC_0001.NEF.xmp")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        let photo = stem(try destination(result, "DSC_0001.NEF"))
        #expect(try destination(result, "DSC_0001.NEF").hasSuffix(".nef"))
        for name in ["DSC_0001.xmp", "DSC_0001.NEF.xmp"] {
            #expect(try destination(result, name).hasPrefix(photo), "\(name)")
        }
    }

    @Test("A sidecar stands beside the name its photo was filed under before, even when these bytes would be dated otherwise today")
    func sidecarOfADuplicatePhoto() throws {
        let bare = try SidecarImportTests.withoutExif("pets/leo/IMG_0001.JPG")
        let first = try folder.write(bare, to: "one/pets/leo/IMG_0500.JPG")
        try SidecarImportTests.setTime(first, "2021-01-01T10:00:00Z")
        let filed = try destination(try DossierBinary.run(["import", "--create", "one", "--library", "Library", "--json"], in: folder.url),
                                    "IMG_0500.JPG")
        let second = try folder.write(bare, to: "two/pets/leo/IMG_0500.JPG")
        try SidecarImportTests.setTime(second, "2022-02-02T10:00:00Z")
        try folder.write(SidecarImportTests.aae(), to: "two/pets/leo/IMG_0500.AAE")
        let result = try DossierBinary.run(["import", "--create", "two", "--library", "Library", "--json"], in: folder.url)
        #expect(try destination(result, "IMG_0500.JPG") == filed)
        #expect(try destination(result, "IMG_0500.AAE") == stem(filed) + ".aae")
    }

    @Test("A sidecar named alone on the command line does not pair with a photo beside it that the import does not take")
    func photoNotInTheRun() throws {
        try sample("pets/leo/IMG_0001.JPG", to: "dump/pets/leo/IMG_0001.JPG")
        let aae = try folder.write(SidecarImportTests.aae(), to: "dump/pets/leo/IMG_0001.AAE")
        let result = try DossierBinary.run(["import", "dump/pets/leo/IMG_0001.AAE", "--library", "Library", "--json", "--move",
                                            "--subject", "pets/leo", "--create"], in: folder.url)
        #expect(try outcome(result, "IMG_0001.AAE")["status"] as? String == "skipped")
        #expect(FileManager.default.fileExists(atPath: aae))
        #expect(folder.files(under: "Library/pets/leo/photos").isEmpty)
    }

    @Test("A sidecar whose name two photos share is left where it is, naming both; the same name exactly wins over another case")
    func ambiguousPhoto() throws {
        try sample("pets/leo/IMG_0001.JPG", to: "dump/pets/leo/IMG_1.JPG")
        try sample("pets/leo/IMG_0002.JPG", to: "dump/pets/leo/IMG_1.jpeg")
        let xmp = try folder.write(SidecarImportTests.xmp(rating: 1), to: "dump/pets/leo/IMG_1.xmp")
        try sample("pets/leo/IMG_0001.JPG", to: "dump/pets/leo/IMG_2.JPG")
        try sample("pets/leo/IMG_0002.JPG", to: "dump/pets/leo/img_2.jpg")
        try folder.write(SidecarImportTests.aae(), to: "dump/pets/leo/img_2.aae")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        let ambiguous = try outcome(result, "IMG_1.xmp")
        #expect(ambiguous["status"] as? String == "skipped")
        #expect((ambiguous["error"] as? String)?.contains("IMG_1.JPG, IMG_1.jpeg share its name") == true, "\(ambiguous)")
        #expect(FileManager.default.fileExists(atPath: xmp))
        #expect(try destination(result, "img_2.aae") == stem(try destination(result, "img_2.jpg")) + ".aae")
    }

    @Test("An XMP sidecar whose licence comment runs past the first 4 KiB is still a sidecar; an XML file of a comment alone is left")
    func xmpAfterALongComment() throws {
        try sample("pets/leo/IMG_0001.JPG", to: "dump/pets/leo/IMG_0001.JPG")
        let licence = (1...80).map { "Line \($0) of the licence this editor writes first, 2021-03-0\($0 % 9 + 1) revision." }
            .joined(separator: "\n")
        let packet = SidecarImportTests.xmp(rating: 3)
        let commented = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!--\n\(licence)\n-->\n"
            + packet.drop { $0 != "<" }.replacingOccurrences(of: "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n", with: "")
        #expect(commented.utf8.count > 5_000)
        let xmp = try folder.write(commented, to: "dump/pets/leo/IMG_0001.xmp")
        let notes = try folder.write("<?xml version=\"1.0\"?>\n<!--\n\(licence)\n-->\n<notes/>\n", to: "dump/pets/leo/notes.xml")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json", "--move"], in: folder.url)
        #expect(result.status != 1, "\(result.standardOutput) \(result.standardError)")
        let photo = try destination(result, "IMG_0001.JPG")
        #expect(try destination(result, "IMG_0001.xmp") == stem(photo) + ".xmp")
        #expect(!FileManager.default.fileExists(atPath: xmp))
        let left = try outcome(result, "notes.xml")
        #expect(left["status"] as? String == "skipped", "\(left)")
        #expect(FileManager.default.fileExists(atPath: notes))
        #expect(folder.files(under: "Library/pets/leo/records").isEmpty)
    }

    /// A sample JPEG with its EXIF segment cut out: nothing in it says when it was taken.
    static func withoutExif(_ sample: String) throws -> [UInt8] {
        let bytes = Array(try Data(contentsOf: DossierBinary.packageRoot.appendingPathComponent("Samples/\(sample)")))
        let exifName = Array("Exif".utf8)
        let start = try #require((2..<(bytes.count - 10)).first { (at: Int) -> Bool in
            bytes[at] == 0xFF && bytes[at + 1] == 0xE1 && Array(bytes[(at + 4)..<(at + 8)]) == exifName
        })
        let length = Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
        return Array(bytes[..<start]) + Array(bytes[(start + 2 + length)...])
    }

    static func setTime(_ path: String, _ iso: String) throws {
        let date = try #require(ISO8601DateFormatter().date(from: iso))
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }
}
