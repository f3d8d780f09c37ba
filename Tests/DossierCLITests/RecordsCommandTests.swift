import DossierCore
import Foundation
import DossierTestSupport
import Testing

@Suite("Records and subjects, end to end through the binary")
struct RecordsCommandTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        for arguments in [
            ["subjects", "add", "pets/leo", "--name", "레오", "--alias", "Leo", "--born", "2022-06-01", "--sex", "수컷",
             "--species", "레게", "--morph", "마크스노우"],
            ["subjects", "add", "pets/coco", "--name", "코코", "--species", "crested gecko"],
            ["subjects", "add", "children/mina", "--name", "민아", "--alias", "Mina", "--born", "2024-02-10T14:30", "--sex", "girl"],
        ] {
            let result = try DossierBinary.run(arguments + ["--library", "Library"], in: folder.url)
            #expect(result.status == 0, "\(result.standardError)")
        }
    }

    func records(_ subject: String, _ extra: [String] = []) throws -> [[String: Any]] {
        let result = try DossierBinary.run(["records", subject, "--library", "Library", "--json"] + extra, in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        return result.jsonLines
    }

    /// A record's JSON without its id and source path, for comparing with what a line says.
    func summary(_ record: [String: Any]) -> String {
        let measurements = (record["measurements"] as? [[String: Any]] ?? []).map {
            "\($0["name"]!)=\($0["value"]!)\($0["unit"]!)"
        }
        let line = (record["source"] as? [String: Any])?["line"] as? Int ?? 0
        return "\(record["date"]!) \(record["kind"]!) [\(measurements.joined(separator: ","))] \(record["text"]!) @\(line)"
    }

    @Test("The notepad examples of the domain file give exactly these records, under the subjects they name")
    func notepadExamples() throws {
        try folder.write(Array("""
            2023.05.01 레오 귀뚜라미 5마리
            5/3 레오 탈피 (완탈)
            2023년 5월 7일 (일) 레오 체중 45g
            [코코] 23.05.10 밀웜 10

            """.utf8), to: "logs/mixed.txt")
        try folder.write(Array("== 2024-03-02 ==\n- fed 2 pinkies\n- water change\n- weight 312 g\n".utf8), to: "logs/pets/leo/2024.txt")
        let result = try DossierBinary.run(["import", "--create", "logs", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.summary?["imported"] as? Int == 2)
        #expect(try records("pets/leo").map(summary) == [
            "2023-05-01 feeding [cricket=5count] 2023.05.01 레오 귀뚜라미 5마리 @1",
            "2023-05-03 shedding [] 5/3 레오 탈피 (완탈) @2",
            "2023-05-07 weight [weight=45g] 2023년 5월 7일 (일) 레오 체중 45g @3",
            "2024-03-02 feeding [pinky=2count] - fed 2 pinkies @2",
            "2024-03-02 cleaning [] - water change @3",
            "2024-03-02 weight [weight=312g] - weight 312 g @4",
        ])
        #expect(try records("pets/coco").map(summary) == ["2023-05-10 feeding [mealworm=10count] [코코] 23.05.10 밀웜 10 @4"])
        let weights = try records("pets/leo", ["--kind", "weight", "--since", "2024-01-01"])
        #expect(weights.map(summary) == ["2024-03-02 weight [weight=312g] - weight 312 g @4"])
        #expect(weights.first?["subject"] as? String == "pets/leo")
        #expect((weights.first?["source"] as? [String: Any])?["path"] as? String == folder.path("logs/pets/leo/2024.txt"))
    }

    @Test("Importing the same log again adds nothing; the same entries in another file are not filed twice")
    func reimportAddsNothing() throws {
        let log = Array("2023.05.01 레오 귀뚜라미 5마리\n2023.05.02 레오 체중 45g\n".utf8)
        try folder.write(log, to: "logs/a.txt")
        _ = try DossierBinary.run(["import", "--create", "logs", "--library", "Library"], in: folder.url)
        let filed = try Data(contentsOf: URL(fileURLWithPath: folder.path("Library/pets/leo/records/2023.jsonl")))
        try folder.write(log, to: "more/b.txt")
        let again = try DossierBinary.run(["import", "--create", "more", "--library", "Library", "--json"], in: folder.url)
        #expect(again.outcomes.first?["status"] as? String == "duplicate")
        // Known by its bytes before a line of it is read: the copy the library keeps of a.txt.
        #expect(again.outcomes.first?["records"] == nil)
        #expect((again.outcomes.first?["destination"] as? String)?.hasPrefix(folder.path("Library/sources/a_")) == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("Library/pets/leo/records/2023.jsonl"))) == filed)
        #expect(try records("pets/leo").count == 2)
    }

    @Test("A CP949 log and a UTF-16 log read alike; 똠 comes out right")
    func encodings() throws {
        // "2023.05.01 레오 똠양꿍 귀뚜라미 5마리" in CP949 (똠 is 0x8C 0x63, outside EUC-KR).
        let cp949: [UInt8] = Array("2023.05.01 ".utf8) + [183, 185, 191, 192, 32, 140, 99, 190, 231, 178, 225, 32, 177, 205, 182, 209,
                                                          182, 243, 185, 204, 32, 53, 184, 182, 184, 174, 0x0D, 0x0A]
        try folder.write(cp949, to: "logs/cp949.txt")
        let utf16 = "2023.06.01 레오 똠 체중 47g\r\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        try folder.write([0xFF, 0xFE] + utf16, to: "logs/utf16.txt")
        let result = try DossierBinary.run(["import", "--create", "logs", "--library", "Library", "--json"], in: folder.url)
        #expect(result.summary?["imported"] as? Int == 2, "\(result.standardOutput)")
        #expect(try records("pets/leo").map { $0["text"] as? String } == ["2023.05.01 레오 똠양꿍 귀뚜라미 5마리", "2023.06.01 레오 똠 체중 47g"])
    }

    @Test("A file in no known encoding is skipped with a clear message, left for a person, and nothing of it is filed")
    func refusesUnknownEncodings() throws {
        try folder.write(Array("2023.05.01 Leo fed\n".utf8) + [0x48, 0xE9, 0xFF, 0x0A], to: "logs/latin1.txt")
        let result = try DossierBinary.run(["import", "--create", "logs", "--library", "Library", "--json"], in: folder.url)
        // Nothing failed; a person should look (exit 3).
        #expect(result.status == 3)
        #expect(result.outcomes.first?["status"] as? String == "skipped")
        #expect(result.outcomes.first?["error"] as? String == "\(folder.path("logs/latin1.txt")): "
            + "not text in UTF-8, UTF-16 (with a byte-order mark) or CP949 (byte 0xE9 on line 2 is neither UTF-8 nor CP949 (EUC-KR)); "
            + "it looks like text in another encoding: save it as UTF-8 to import it")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/pets/leo/records")))
    }

    @Test("Unknown names and dateless lines are reported with file and line; the rest imports")
    func problemsNameTheLine() throws {
        try folder.write(Array("그냥 메모\n2023.05.01 레오 귀뚜라미 5마리\n레우: 체중 50g\n".utf8), to: "logs/notes.txt")
        let result = try DossierBinary.run(["import", "--create", "logs", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 3)
        let path = folder.path("logs/notes.txt")
        #expect(result.outcomes.first?["problems"] as? [String] == [
            "\(path): line 1: no date on this line or above it",
            "\(path): line 3: unknown name '레우' (did you mean 레오?)",
        ])
        #expect(try records("pets/leo").count == 1)
    }

    @Test("A dry run counts the records it would add, telling those already filed, and writes nothing")
    func dryRun() throws {
        try folder.write(Array("2023.05.01 레오 귀뚜라미 5마리\n".utf8), to: "logs/a.txt")
        let result = try DossierBinary.run(["import", "--create", "logs", "--library", "Library", "--dry-run", "--json"], in: folder.url)
        #expect(result.outcomes.first?["destination"] as? String == folder.path("Library/pets/leo/records/2023.jsonl"))
        #expect((result.outcomes.first?["records"] as? [String: Any])?["added"] as? Int == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/pets/leo/records")))
        _ = try DossierBinary.run(["import", "--create", "logs", "--library", "Library"], in: folder.url)
        try folder.write(Array("2023.05.01 레오 귀뚜라미 5마리\n2023.05.02 레오 탈피\n".utf8), to: "more/b.txt")
        let filed = try Data(contentsOf: URL(fileURLWithPath: folder.path("Library/pets/leo/records/2023.jsonl")))
        let again = try DossierBinary.run(["import", "--create", "more", "--library", "Library", "--dry-run", "--json"], in: folder.url)
        #expect(again.outcomes.first?["records"] as? [String: Int] == ["added": 1, "duplicate": 1, "removed": 0])
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("Library/pets/leo/records/2023.jsonl"))) == filed)
    }

    @Test("A CSV export maps its columns, converts units in the headers and takes the kind from the file's name")
    func csvExports() throws {
        try folder.write(Array("""
            Baby Tracker export\r
            Time,Amount (oz.),Duration(minutes),Notes\r
            "1/13/26, 15:58",4,12,"good feed, sleepy after"\r
            "1/13/26, 19:02",3.5\r

            """.utf8), to: "exports/feeding.csv")
        let result = try DossierBinary.run(["import", "exports", "--library", "Library", "--subject", "children/mina", "--json"],
                                           in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(try records("children/mina").map(summary) == [
            "2026-01-13T15:58 feeding [Amount=118.294ml,Duration=12min] good feed, sleepy after @3",
            "2026-01-13T19:02 feeding [Amount=103.5073ml] 1/13/26, 19:02, 3.5 @4",
        ])
    }

    @Test("Subjects are listed and shown with their normalised taxonomy and derived fields")
    func subjects() throws {
        let shown = try DossierBinary.run(["subjects", "show", "pets/leo", "--library", "Library", "--json"], in: folder.url)
        let leo = try #require(shown.jsonLines.first)
        #expect(leo["species"] as? String == "Eublepharis macularius")
        #expect(leo["morph"] as? String == "Mack Snow")
        #expect(leo["class"] as? String == "reptile")
        #expect(leo["sex"] as? String == "male")
        let mina = try #require(try DossierBinary.run(["subjects", "show", "children/mina", "--library", "Library", "--json"],
                                                      in: folder.url).jsonLines.first)
        let derived = try #require(mina["derived"] as? [String: Any])
        #expect((derived["chineseZodiac"] as? [String: String])?["en"] == "Dragon")
        #expect(derived["hundredthDay"] as? String == "2024-05-19")
        #expect(derived["firstBirthday"] as? String == "2025-02-10")
        #expect((derived["lunarBirthday"] as? [String: Any])?["month"] as? Int == 1)
        let list = try DossierBinary.run(["subjects", "list", "--library", "Library"], in: folder.url)
        #expect(list.standardOutput == """
            children/mina  민아  (Mina)  born 2024-02-10T14:30  female
            pets/coco  코코  Correlophus ciliatus
            pets/leo  레오  (Leo)  born 2022-06-01  Eublepharis macularius Mack Snow  male

            """)
        let again = try DossierBinary.run(["subjects", "add", "pets/leo", "--name", "x", "--library", "Library"], in: folder.url)
        #expect(again.status == 1)
        #expect(again.standardError == "dossier: pets/leo already exists; its profile was left as it is\n")
    }

    @Test("dossier today lists the birthdays, hatch days, 100th days and first birthdays of a date")
    func today() throws {
        let hundredth = try DossierBinary.run(["today", "--date", "2024-05-19", "--library", "Library"], in: folder.url)
        #expect(hundredth.standardOutput == "children/mina  민아: 100th day (백일)\n")
        let hatch = try DossierBinary.run(["today", "--date", "2024-06-01", "--library", "Library"], in: folder.url)
        #expect(hatch.standardOutput == "pets/leo  레오: hatch day (2nd)\n")
        let none = try DossierBinary.run(["today", "--date", "2024-06-02", "--library", "Library"], in: folder.url)
        #expect(none.standardOutput.isEmpty)
    }
}
