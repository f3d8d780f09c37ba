import Foundation
import DossierTestSupport
import Testing

/// What an export's file name may and may not decide: a kind as the last resort, never a second
/// filing of the same bytes.
@Suite("An export's name is the last word on its kind, and a copy's name changes nothing")
struct ExportNameTests {
    @Test("The same export downloaded again as 'BabyRecords (1).csv' files nothing twice and keeps the kind")
    func aDownloadedCopyFilesNothingTwice() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "children/mina", "--name", "Mina", "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        let export = "Date,Time,Amount (ml)\r\n2024-03-05,07:10,120\r\n2024-03-05,10:40,90\r\n2024-03-06,06:55,135\r\n"
        try folder.write(export, to: "first/BabyRecords.csv")
        try folder.write(export, to: "again/BabyRecords (1).csv")
        let first = try DossierBinary.run(["import", "first", "--library", "Library", "--subject", "children/mina", "--json"],
                                          in: folder.url)
        #expect(first.outcomes.first?["records"] as? [String: Int] == ["added": 3, "duplicate": 0, "removed": 0])
        let again = try DossierBinary.run(["import", "again", "--library", "Library", "--subject", "children/mina", "--json"],
                                          in: folder.url)
        #expect(again.status == 0, "\(again.standardError)")
        let outcome = try #require(again.outcomes.first)
        #expect(outcome["status"] as? String == "duplicate", "\(outcome)")
        #expect(outcome["records"] as? [String: Int] == ["added": 0, "duplicate": 3, "removed": 0])
        let records = try DossierBinary.run(["records", "children/mina", "--library", "Library", "--json"], in: folder.url).jsonLines
        #expect(records.count == 3)
        #expect(Set(records.compactMap { $0["kind"] as? String }) == ["babyrecord"])
    }

    @Test("A keywords file without a 'foods' key (or without 'kinds') adds what it has and nothing is refused")
    func aKeywordsFileMayLeaveOutAKey() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "pets/leo", "--name", "Leo", "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        try folder.write(#"{"kinds": [{"kind": "vet", "words": ["checkup"]}]}"#, to: "Library/config/keywords.json")
        try folder.write("2024-03-05 checkup, all fine\n", to: "logs/leo.txt")
        let imported = try DossierBinary.run(["import", "logs", "--library", "Library", "--subject", "pets/leo"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        let records = try DossierBinary.run(["records", "pets/leo", "--library", "Library", "--json"], in: folder.url).jsonLines
        #expect(records.compactMap { $0["kind"] as? String } == ["vet"])
    }
}

@Suite("An export's kind column decides its records' kinds, whatever the file is called")
struct ExportKindColumnTests {
    @Test("A 'RecordCategory' column (Feeding, Diaper, Sleep, Growth) gives each row its kind, through the keyword table")
    func aRecordCategoryColumnGivesTheKinds() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "children/mina", "--name", "Mina", "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        try folder.write("""
            Date,RecordCategory,Notes\r
            2024-03-05 07:10,Feeding,bottle\r
            2024-03-05 08:02,Diaper,wet\r
            2024-03-05 09:30,Sleep,"in the pram, 40 minutes"\r
            2024-03-06 10:00,Growth,checkup\r

            """, to: "BabyRecords.csv")
        let imported = try DossierBinary.run(["import", "BabyRecords.csv", "--library", "Library", "--subject", "children/mina", "--json"],
                                             in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.outcomes.first?["reading"] as? String
                == "4 rows -> 4 records, 0 problems; dates in 'Date'; kind from 'RecordCategory'")
        let records = try DossierBinary.run(["records", "children/mina", "--library", "Library", "--json"], in: folder.url).jsonLines
        #expect(records.compactMap { $0["kind"] as? String } == ["feeding", "diaper", "sleep", "growth"])
    }
}
