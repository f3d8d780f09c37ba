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
        let result = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        let photo = try destination(result, "IMG_0001.JPG")
        let sidecar = try destination(result, "IMG_0001.AAE")
        #expect(sidecar == stem(photo) + ".aae")
        #expect(try outcome(result, "IMG_0001.AAE")["format"] as? String == "aae")
        #expect(try outcome(result, "IMG_0001.AAE")["date_from"] as? String == "photo")
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
        let result = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url)
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
        let result = try DossierBinary.run(["import", "dump", "--library", "Library", "--json", "--move"], in: folder.url)
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
        let result = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        for number in ["0001", "0002"] {
            #expect(try outcome(result, "IMG_\(number).AAE")["status"] as? String == "imported")
            #expect(try destination(result, "IMG_\(number).AAE") == stem(try destination(result, "IMG_\(number).JPG")) + ".aae")
        }
    }

    @Test("A sidecar that comes after its photo was filed and moved away finds it through the index")
    func sidecarAfterItsPhoto() throws {
        try sample("pets/leo/IMG_0001.JPG", to: "dump/pets/leo/IMG_0001.JPG")
        let first = try DossierBinary.run(["import", "dump", "--library", "Library", "--json", "--move"], in: folder.url)
        #expect(first.status == 0, "\(first.standardError)")
        let photo = try destination(first, "IMG_0001.JPG")
        try folder.write(SidecarImportTests.aae(), to: "dump/pets/leo/IMG_0001.AAE")
        let second = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(try destination(second, "IMG_0001.AAE") == stem(photo) + ".aae")
    }

    @Test("A sidecar beside a HEIC stays a filed file of its own through index rebuild, never taken for a rendition")
    func sidecarBesideAHEICThroughRebuild() throws {
        try sample("children/mina/IMG_0712.HEIC", to: "dump/children/mina/IMG_0712.HEIC")
        try folder.write(SidecarImportTests.aae(), to: "dump/children/mina/IMG_0712.AAE")
        let result = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        let sidecar = try destination(result, "IMG_0712.AAE")
        #expect(sidecar == stem(try destination(result, "IMG_0712.HEIC")) + ".aae")
        #expect(try DossierBinary.run(["index", "rebuild", "--library", "Library"], in: folder.url).status == 0)
        let layout = LibraryLayout(root: folder.url.appendingPathComponent("Library"))
        let index = try #require(try LibraryIndex.openReadOnly(layout))
        defer { index.close() }
        #expect(try index.filedFile(at: String(sidecar.dropFirst(layout.root.path.count + 1))) != nil)
    }
}
