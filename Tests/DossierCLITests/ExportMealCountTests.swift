import Foundation
import DossierTestSupport
import Testing

/// A keeper's feeding log counts what was offered and what was eaten: a refused meal is filed
/// as a feeding of which nothing was eaten, never as one more meal eaten.
@Suite("Offered, eaten and refused counts and yes/no flags are read, and a refused meal is never counted as eaten")
struct ExportMealCountTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "pets/nagini", "--name", "Nagini", "--species", "Ball Python",
                                           "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
    }

    /// `date offered eaten refused` of each feeding, in date order.
    func meals() throws -> [String] {
        let result = try DossierBinary.run(["records", "pets/nagini", "--kind", "feeding", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        return result.jsonLines.map { record in
            let counts = Dictionary((record["measurements"] as? [[String: Any]] ?? []).map { ($0["name"] as! String, $0["value"] as! Double) },
                                    uniquingKeysWith: { first, _ in first })
            return "\(record["date"]!) " + ["offered", "eaten", "refused"].map { name in counts[name].map { "\(name)=\(Int($0))" } ?? "\(name)=-" }
                .joined(separator: " ")
        }
    }

    @Test("Offered and Eaten counts are filed as measurements; Eaten 0 is a refused meal with nothing eaten")
    func offeredAndEatenCounts() throws {
        try folder.write("""
            Date,Snake,Prey,Offered,Eaten,Notes
            2024-01-06,Nagini,small rat,1,1,
            2024-01-13,Nagini,small rat,1,0,"refused, in shed"
            2024-01-20,Nagini,mice,3,2,"took two, left one"

            """, to: "export/feeding.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.outcomes.first?["reading"] as? String == "3 rows -> 3 records, 0 problems; dates in 'Date'; "
                + "subjects in 'Snake' (by its values); kind 'feeding' from the file's name; 'Offered' -> count; 'Eaten' -> count; "
                + "kept as text: 'Prey'")
        #expect(try meals() == ["2024-01-06 offered=1 eaten=1 refused=-", "2024-01-13 offered=1 eaten=0 refused=-",
                                "2024-01-20 offered=3 eaten=2 refused=-"])
    }

    @Test("A Refused yes/no column beside Angeboten gives eaten 0 for a refused meal, never one more meal eaten")
    func aRefusedFlag() throws {
        try folder.write("""
            Datum,Tier,Futter,Angeboten,Refused
            03.02.2024,Nagini,Ratte,1,no
            10.02.2024,Nagini,Ratte,1,yes
            17.02.2024,Nagini,Ratte,2,1

            """, to: "export/feeding.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(try meals() == ["2024-02-03 offered=1 eaten=- refused=0", "2024-02-10 offered=1 eaten=0 refused=1",
                                "2024-02-17 offered=2 eaten=1 refused=1"])
    }

    @Test("A count below zero, more refused than offered, or counts that do not add up, are problems")
    func impossibleCounts() throws {
        try folder.write("date,name,offered,eaten,refused\n2024-03-01,Nagini,2,,5\n2024-03-08,Nagini,-3,,\n2024-03-15,Nagini,5,3,yes\n",
                         to: "export/feeding.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 3)
        let path = folder.path("export/feeding.csv")
        #expect(imported.outcomes.first?["problems"] as? [String] == [
            "\(path): line 2: more refused (5) than offered (2)", "\(path): line 3: 'offered' is -3, and no count is below zero",
            "\(path): line 4: offered 5, eaten 3 and refused 1 do not add up",
        ])
    }

    @Test("Refused 1 of 3 offered leaves 2 eaten")
    func refusedOfOffered() throws {
        try folder.write("date,name,offered,refused\n2024-03-01,Nagini,3,1\n2024-03-08,Nagini,2,0\n", to: "export/feeding.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(try meals() == ["2024-03-01 offered=3 eaten=2 refused=1", "2024-03-08 offered=2 eaten=- refused=0"])
    }
}
