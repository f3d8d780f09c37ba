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
        // Known by its bytes before it is read: no row of it is read again.
        #expect(outcome["records"] == nil)
        #expect((outcome["destination"] as? String)?.hasPrefix(folder.path("Library/sources/BabyRecords_")) == true)
        let records = try DossierBinary.run(["records", "children/mina", "--library", "Library", "--json"], in: folder.url).jsonLines
        #expect(records.count == 3)
        #expect(Set(records.compactMap { $0["kind"] as? String }) == ["babyrecord"])
    }

    @Test("The same bytes under another name and path are a duplicate source (a dry run says so too): nothing filed again, --move removes it, another subject's copy still files")
    func theSameBytesAreOneSource() throws {
        let folder = try TemporaryFolder()
        for subject in ["children/mina", "children/hana"] {
            let added = try DossierBinary.run(["subjects", "add", subject, "--name", String(subject.dropFirst(9)), "--library", "Library"],
                                              in: folder.url)
            #expect(added.status == 0, "\(added.standardError)")
        }
        let export = "Date,Time,Amount (ml)\r\n2024-03-05,07:10,120\r\n2024-03-05,10:40,90\r\n"
        try folder.write(export, to: "dump/children/mina/feedings.csv")
        try folder.write(export, to: "later/children/mina/export.csv")
        try folder.write(export, to: "later/children/hana/feedings.csv")
        let first = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(first.outcomes.first?["records"] as? [String: Int] == ["added": 2, "duplicate": 0, "removed": 0])
        let kept = try #require(folder.files(under: "Library/sources").first)

        // A dry run says so too, though it stages nothing.
        let dry = try DossierBinary.run(["import", "--create", "later/children/mina", "--library", "Library", "--dry-run", "--json"], in: folder.url)
        #expect(dry.outcomes.map { $0["status"] as? String } == ["duplicate"])
        let later = try DossierBinary.run(["import", "--create", "later", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(later.status == 0, "\(later.standardError)")
        let outcomes = Dictionary(uniqueKeysWithValues: later.outcomes.map { ($0["source"] as! String, $0) })
        let copy = try #require(outcomes[folder.path("later/children/mina/export.csv")])
        #expect(copy["status"] as? String == "duplicate")
        #expect(copy["destination"] as? String == folder.path("Library/sources/\(kept)"))
        #expect(copy["sourceRemoved"] as? Bool == true)
        #expect(!FileManager.default.fileExists(atPath: folder.path("later/children/mina/export.csv")))
        // The same bytes for another child are her records.
        let hana = try #require(outcomes[folder.path("later/children/hana/feedings.csv")])
        #expect(hana["records"] as? [String: Int] == ["added": 2, "duplicate": 0, "removed": 0])
        let mina = try DossierBinary.run(["records", "children/mina", "--library", "Library", "--json"], in: folder.url).jsonLines
        #expect(mina.compactMap { $0["kind"] as? String } == ["feeding", "feeding"])
        #expect(try String(contentsOfFile: folder.path("Library/sources/\(kept)"), encoding: .utf8) == export)
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
