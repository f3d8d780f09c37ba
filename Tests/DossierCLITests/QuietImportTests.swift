import DossierCore
import DossierTestSupport
import Foundation
import Testing

/// What is not a photo, video or care record is passed over with its type, never a failure;
/// every hidden file gets its line; a raw or a sound file is never filed as a video.
@Suite("Quiet where nothing is wrong")
struct QuietImportTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    func run(_ path: String = "dump") throws -> DossierBinary.Result {
        try DossierBinary.run(["import", "--create", path, "--library", "Library", "--json"], in: folder.url)
    }

    func outcome(_ result: DossierBinary.Result, _ name: String) throws -> [String: Any] {
        try #require(result.outcomes.first { ($0["source"] as? String)?.hasSuffix("/\(name)") ?? false }, "\(result.standardOutput)")
    }

    @Test("Files that are no kind Dossier reads are skipped with their type, never failed", arguments: [
        ("picture.ppm", Array("P6\n4 2\n255\n".utf8) + [UInt8](repeating: 0xC8, count: 24), "a Netpbm image (PBM, PGM, PPM)"),
        ("font.ttf", [0x00, 0x01, 0x00, 0x00, 0x00, 0x0F, 0x00, 0x80] + [UInt8](repeating: 0x41, count: 200), "a font"),
        ("page.html", Array("<!DOCTYPE html>\n<html><body>caf".utf8) + [0xE9] + Array(" au lait</body></html>\n".utf8),
         "an HTML page"),
    ])
    func noKindDossierReads(_ name: String, _ bytes: [UInt8], _ type: String) throws {
        let path = try folder.write(bytes, to: "dump/pets/leo/\(name)")
        let result = try run()
        #expect(result.status != 1, "\(result.standardOutput) \(result.standardError)")
        let skipped = try outcome(result, name)
        #expect(skipped["status"] as? String == "skipped")
        #expect((skipped["error"] as? String)?.hasSuffix("it looks like \(type)") == true || (skipped["error"] as? String)?
            .hasSuffix("it looks like \(type))") == true, "\(skipped)")
        #expect(SafetyBytes.of(path) == bytes)
    }

    @Test("Random bytes are data of an unknown type, never called a text file")
    func randomBytesAreNotText() throws {
        var generator = TestSeed().generator
        let bytes = (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(FileTypeDescription.describe(head: Array(bytes.prefix(4096))) == "data of an unknown type")
    }

    @Test("A Canon CR3 raw is filed as a raw under photos/, never as a video; an MP4 with sound alone goes to audio/")
    func rawAndSoundAreNotVideos() throws {
        var raw = TestMovie()
        raw.majorBrand = "crx "
        raw.compatibleBrands = ["crx ", "isom"]
        try folder.write(raw.bytes, to: "dump/pets/leo/IMG_0001.CR3")
        var sound = TestMovie()
        sound.majorBrand = "isom"
        sound.compatibleBrands = ["isom", "mp42"]
        sound.hasVideo = false
        sound.quickTimeMetadata = [("com.apple.quicktime.creationdate", "2022-03-04T05:06:07+0900")]
        try folder.write(sound.bytes, to: "dump/pets/leo/voice.mp4")
        let result = try run()
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        let cr3 = try outcome(result, "IMG_0001.CR3")
        #expect(cr3["format"] as? String == "cr3")
        #expect((cr3["destination"] as? String)?.contains("/pets/leo/photos/") == true, "\(cr3)")
        // Its start alone (no raw data, no preview): filed all the same, and it says why it has no rendition.
        #expect((cr3["warnings"] as? [String])
            == ["no rendition: raw data is corrupt or unsupported: LibRaw cannot read it: Unsupported file format or not RAW file"])
        let voice = try outcome(result, "voice.mp4")
        #expect(voice["format"] as? String == "m4a")
        #expect((voice["destination"] as? String)?.contains("/pets/leo/audio/2022/2022-03-04_050607_") == true, "\(voice)")
        #expect(folder.files(under: "Library/pets/leo/videos").isEmpty)
        // The index is rebuilt with the audio folder too.
        #expect(try DossierBinary.run(["index", "rebuild", "--library", "Library"], in: folder.url).standardOutput
            .hasPrefix("Indexed 2 photos"))
    }

    @Test("Hidden files and folders each get a skipped line with the code hidden, and the summary counts them")
    func hiddenFilesAreSaid() throws {
        let photo = Array(try Data(contentsOf: DossierBinary.packageRoot.appendingPathComponent("Samples/pets/leo/IMG_0001.JPG")))
        try folder.write(photo, to: "dump/pets/leo/IMG_0001.JPG")
        try folder.write(photo, to: "dump/pets/leo/._IMG_0001.JPG")
        try folder.write("Bud1", to: "dump/pets/leo/.DS_Store")
        try folder.write(photo, to: "dump/.photoprism/cache/thumb.jpg")
        try folder.write(photo, to: "dump/pets/leo/IMG_0002.JPG.part")
        let result = try run()
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        for name in ["._IMG_0001.JPG", ".DS_Store", ".photoprism"] {
            let hidden = try outcome(result, name)
            #expect(hidden["status"] as? String == "skipped")
            #expect(hidden["errorCode"] as? String == "hidden", "\(hidden)")
        }
        #expect(try outcome(result, ".photoprism")["error"] as? String
            == "\(folder.path("dump/.photoprism")): a hidden folder (its name starts with '.'), not walked")
        #expect(try outcome(result, "IMG_0002.JPG.part")["errorCode"] as? String == "being-written")
        let walkedInto = result.outcomes.filter { ($0["source"] as? String ?? "").contains("thumb.jpg") }
        #expect(walkedInto.isEmpty)
        #expect(result.summary?["hidden"] as? Int == 3)
        #expect(result.summary?["skipped"] as? Int == 4)
        #expect(result.summary?["imported"] as? Int == 1)
    }
}

extension QuietImportTests {
    @Test("A log that starts with a format's signature (GIF89a, fLaC) is read as a log; a WebP cut short is filed as it is, damaged")
    func signaturesAreNotEnough() throws {
        try folder.write("GIF89a notes\n2023-05-09 Leo weighed 53 g\n", to: "dump/pets/leo/gif-notes.txt")
        var webp = Array("RIFF".utf8) + [0x00, 0x10, 0x00, 0x00] + Array("WEBPVP8L".utf8) + [0x00, 0x10, 0x00, 0x00, 0x2F]
        webp += (0..<30).map { UInt8($0 * 37 % 256) }
        try folder.write(webp, to: "dump/pets/leo/cut.webp")
        let result = try run()
        let notes = try outcome(result, "gif-notes.txt")
        #expect(notes["status"] as? String == "imported", "\(notes)")
        #expect((notes["records"] as? [String: Int])?["added"] == 1)
        let cut = try outcome(result, "cut.webp")
        #expect(cut["status"] as? String == "imported")
        #expect(cut["damaged"] as? Bool == true)
        #expect((cut["warnings"] as? [String])?.last
            == "damaged (cut short: its RIFF header says 4104 bytes, the file has \(webp.count)): filed byte for byte as it is")
    }

    @Test("A CSV of dates and nothing Dossier reads (a bank statement, a GPS track) is one problem for the file, not one per row")
    func csvOfNoCareRecords() throws {
        let bank = "Date,Description,Debit,Credit,Balance\n03/01/2024,TESCO STORES 2231,12.50,,1000.00\n"
            + "03/02/2024,SALARY ACME LTD,,2000.00,3000.00\n03/04/2024,PETS AT HOME,31.99,,2968.01\n"
        let track = "timestamp,lat,lon,alt_m,speed_ms,sats\n2016-10-04 15:26:01,51.50712,-0.12763,12.5,3.2,11\n"
            + "2016-10-04 15:26:02,51.50714,-0.12761,13.5,3.4,11\n2016-10-04 15:26:03,51.50717,-0.12758,14.0,3.1,12\n"
        let bankPath = try folder.write(bank, to: "dump/pets/leo/bank.csv")
        // A statement with one signed Amount column: money both ways, never an amount fed.
        try folder.write("Date,Description,Amount,Balance\n2024-03-01,TESCO STORES 2231,-12.50,987.50\n"
            + "2024-03-02,SALARY ACME LTD,2000.00,2987.50\n2024-03-04,PETS AT HOME,-31.99,2955.51\n", to: "dump/pets/leo/statement.csv")
        try folder.write(track, to: "dump/pets/leo/track.csv")
        // Care logs beside them are read as ever: one with a measurement, and one of a column or
        // two Dossier does not read (a temperature log, its kind its file's name).
        try folder.write("date,weight (g)\n2024-03-01,45\n", to: "dump/pets/leo/weights.csv")
        try folder.write("date,temperature (C),dose\n2023-09-01,38.5,5 mg\n2023-09-02,38.1,\n", to: "dump/pets/leo/temps.csv")
        let result = try run()
        #expect(result.status != 1, "\(result.standardOutput) \(result.standardError)")
        for (name, columns) in [("bank.csv", "'Description', 'Debit', 'Credit', 'Balance'"),
                                ("track.csv", "'lat', 'lon', 'alt_m', 'speed_ms', 'sats'"),
                                ("statement.csv", "'Description', 'Amount', 'Balance'")] {
            let skipped = try outcome(result, name)
            #expect(skipped["status"] as? String == "skipped")
            #expect((skipped["error"] as? String)?.hasSuffix(
                "\(name): not a care record: no kind, note or measurement column (beside its dates: \(columns)); nothing in it is filed")
                == true, "\(skipped)")
            #expect(skipped["problems"] == nil)
        }
        #expect(try outcome(result, "weights.csv")["status"] as? String == "imported")
        #expect(try outcome(result, "temps.csv")["status"] as? String == "imported")
        #expect(SafetyBytes.of(bankPath) == Array(bank.utf8))
        // The ledger holds one problem for each, the whole file.
        let problems = try DossierBinary.run(["problems", "--json", "--library", "Library"], in: folder.url)
        let listed = problems.jsonLines.filter { ($0["source"] as? String)?.hasSuffix(".csv") == true }
        #expect(listed.count == 3, "\(problems.standardOutput)")
    }

    @Test("A statement whose Type column names no kind of care (CARD_PAYMENT, TRANSFER) is no care record; a keeper's Type column naming one is its kinds")
    func typeColumnNamingNoKindOfCare() throws {
        let statement = """
            Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance
            CARD_PAYMENT,Current,2024-01-03 10:12:44,2024-01-04 08:00:01,Pet Shop Seoul,-23.50,0.00,EUR,COMPLETED,476.50
            TOPUP,Current,2024-01-05 09:00:00,2024-01-05 09:00:02,Top-Up by *1234,200.00,0.00,EUR,COMPLETED,676.50
            TRANSFER,Current,2024-01-07 14:30:10,2024-01-07 14:30:12,To Jane,-50.00,0.00,EUR,COMPLETED,626.50
            EXCHANGE,Current,2024-01-11 11:11:11,2024-01-11 11:11:12,Exchanged to KRW,-100.00,0.50,EUR,COMPLETED,521.80

            """
        try folder.write(statement, to: "dump/pets/leo/account-statement.csv")
        // A keeper's export: most types are kinds Dossier knows; "Handling" becomes a kind of its own.
        try folder.write("Date,Type,Notes\n2024-02-01,Feeding,3 crickets\n2024-02-03,Handling,calm\n2024-02-05,Shed,complete\n",
                         to: "dump/pets/leo/keeper.csv")
        let result = try run()
        let skipped = try outcome(result, "account-statement.csv")
        #expect(skipped["status"] as? String == "skipped", "\(skipped)")
        #expect((skipped["error"] as? String)?.hasSuffix("account-statement.csv: not a care record: no kind, note or measurement column "
            + "(beside its dates: 'Type', 'Product', 'Description', 'Amount', 'Fee', 'Currency', ...); nothing in it is filed") == true,
                "\(skipped)")
        #expect(try outcome(result, "keeper.csv")["status"] as? String == "imported")
        let records = try DossierBinary.run(["records", "pets/leo", "--json", "--library", "Library"], in: folder.url).jsonLines
        #expect(records.map { $0["kind"] as? String } == ["feeding", "handling", "shedding"], "\(records)")
    }

    @Test("A drone's flight record, heights in feet among twenty columns of speeds, batteries and satellites, is no care record")
    func flightRecordIsNoCareRecord() throws {
        var generator = TestSeed().generator
        var lines = ["CUSTOM.date [local],CUSTOM.updateTime [local],OSD.flyTime [s],OSD.latitude,OSD.longitude,OSD.height [ft],"
            + "OSD.altitude [ft],OSD.hSpeed [MPH],OSD.pitch,OSD.roll,OSD.yaw,OSD.flycState,OSD.gpsNum,BATTERY.chargeLevel,"
            + "BATTERY.voltage [V],BATTERY.temperature [F]"]
        for row in 0..<30 {
            let climb = Double(row) * 0.8
            lines.append("4/5/2023,3:12:\(String(format: "%02d", row / 10)).\(row % 10)0 PM,\(Double(row) / 10),37.\(5000 + row),"
                + "127.\(3000 + row),\(climb),\(120 + climb),\(Double.random(in: 0...12, using: &generator)),"
                + "\(Double.random(in: -5...5, using: &generator)),\(Double.random(in: -5...5, using: &generator)),"
                + "\(Double.random(in: -180...180, using: &generator)),P-GPS,\(14 + row % 3),\(98 - row / 10),"
                + "\(15.2 - Double(row) * 0.01),\(86 + Double(row) / 10)")
        }
        try folder.write(lines.joined(separator: "\n") + "\n", to: "dump/pets/leo/DJIFlightRecord_2023-04-05_[15-12-00].csv")
        // A keeper's own log of one measurement among a few notes-like columns is still read.
        try folder.write("date,weight (g),length (cm),enclosure,substrate\n2024-03-01,45,20,A2,paper\n2024-04-01,47,21,A2,paper\n",
                         to: "dump/pets/leo/growth.csv")
        let result = try run()
        let skipped = try outcome(result, "DJIFlightRecord_2023-04-05_[15-12-00].csv")
        #expect(skipped["status"] as? String == "skipped", "\(skipped)")
        #expect((skipped["error"] as? String)?.hasSuffix("not a care record: no kind or note column, and its 3 measurement columns are "
            + "outnumbered by 12 it does not read ('CUSTOM.updateTime [local]', 'OSD.latitude', 'OSD.longitude', 'OSD.hSpeed [MPH]', "
            + "'OSD.pitch', 'OSD.roll', ...); nothing in it is filed") == true, "\(skipped)")
        #expect(try outcome(result, "growth.csv")["status"] as? String == "imported")
    }
}
