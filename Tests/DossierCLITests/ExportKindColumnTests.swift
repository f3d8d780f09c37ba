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
}
