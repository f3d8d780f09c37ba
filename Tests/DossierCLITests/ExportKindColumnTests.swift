import Foundation
import DossierTestSupport
import Testing

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

    @Test("A second kind column (RecordType beside RecordCategory, Method beside Type) is the sub-kind, kept on each record")
    func aSubKindColumnIsKeptOnTheRecord() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "children/mina", "--name", "Mina", "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        try folder.write("""
            Date,RecordCategory,RecordType,Amount (ml),Notes\r
            2024-03-05 07:10,Feeding,Bottle,120,\r
            2024-03-05 09:40,Feeding,Left Breast,,"12 min, then slept"\r
            2024-03-05 10:02,Diaper,Wet,,\r

            """, to: "BabyRecords (1).csv")
        let imported = try DossierBinary.run(["import", "BabyRecords (1).csv", "--library", "Library", "--subject", "children/mina", "--json"],
                                             in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.outcomes.first?["reading"] as? String
                == "3 rows -> 3 records, 0 problems; dates in 'Date'; kind from 'RecordCategory'; sub-kind from 'RecordType'; "
                + "'Amount (ml)' -> ml")
        let records = try DossierBinary.run(["records", "children/mina", "--library", "Library", "--json"], in: folder.url).jsonLines
        #expect(records.map { "\($0["kind"] as? String ?? "-")/\(($0["fields"] as? [String: String])?["subkind"] ?? "-")" }
                == ["feeding/Bottle", "feeding/Left Breast", "diaper/Wet"])
    }

    @Test("A 'Daily Total' row is a summary, not one more of the day's feedings")
    func aDailyTotalRowIsASummary() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "children/mina", "--name", "Mina", "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        try folder.write("""
            Date,Type,Notes\r
            2024-03-05 07:10,Feeding,bottle 120 ml\r
            2024-03-05 11:30,Feeding,bottle 150 ml\r
            2024-03-05 23:59,Daily Total,270 ml\r

            """, to: "log.csv")
        let imported = try DossierBinary.run(["import", "log.csv", "--library", "Library", "--subject", "children/mina"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        let records = try DossierBinary.run(["records", "children/mina", "--library", "Library", "--json"], in: folder.url).jsonLines
        #expect(records.compactMap { $0["kind"] as? String } == ["feeding", "feeding", "summary"])
    }

    @Test("A note that totals the day makes its row a summary, even where the file's name gives the kind; --kind goes through the keyword table")
    func totalsInNotesAndRequestedKinds() throws {
        let folder = try TemporaryFolder()
        for (subject, name) in [("children/mina", "Mina"), ("pets/leo", "Leo")] {
            let added = try DossierBinary.run(["subjects", "add", subject, "--name", name, "--library", "Library"], in: folder.url)
            #expect(added.status == 0, "\(added.standardError)")
        }
        try folder.write("Date,Amount (ml),Note\n2024-03-01,120,bottle\n2024-03-01,930,Daily total\n2024-03-01,930,합계\n",
                         to: "dump/children/mina/feedings.csv")
        #expect(try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url).status == 0)
        #expect(try FiledRecords.lines(of: "children/mina", in: folder) == [
            "2024-03-01 feeding Amount=120 ml", "2024-03-01 summary Amount=930 ml", "2024-03-01 summary Amount=930 ml",
        ])
        try folder.write("Start,End,Note\n2024-03-01,2024-03-05,s1\n", to: "sheds.csv")
        let shed = try DossierBinary.run(["import", "sheds.csv", "--kind", "탈피", "--subject", "pets/leo", "--library", "Library", "--json"],
                                         in: folder.url)
        #expect(shed.outcomes.first?["reading"] as? String == "1 row -> 1 record, 0 problems; dates in 'Start'; ends in 'End'; kind 'shedding' as asked")
        #expect(try FiledRecords.lines(of: "pets/leo", in: folder) == ["2024-03-05 shedding start:2024-03-01"])
    }
}
