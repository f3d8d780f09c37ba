import Foundation
import DossierTestSupport
import Testing

/// A date column is known by its values, whatever its header says.
@Suite("A CSV's date column is found by its values when its header names none")
struct ExportDateColumnTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        for (subject, name) in [("pets/nagini", "Nagini"), ("pets/kaa", "Kaa"), ("children/mina", "Mina")] {
            let added = try DossierBinary.run(["subjects", "add", subject, "--name", name, "--library", "Library"], in: folder.url)
            #expect(added.status == 0, "\(added.standardError)")
        }
    }

    func records(_ subject: String) throws -> [[String: Any]] {
        let result = try DossierBinary.run(["records", subject, "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        return result.jsonLines
    }

    @Test("A snake keeper's shed sheet with its dates under 'Shed completed' (an end, the only date) files every row, and says where the dates came from")
    func shedDatesUnderAnyHeader() throws {
        try folder.write("""
            Snake,Shed completed,Notes\r
            Nagini,3/14/2024,"clean, one piece"\r
            Kaa,3/22/2024,stuck eye cap\r
            Nagini,4/30/2024,\r
            Kaa,5/2/2024,"soaked first, then fine"\r

            """, to: "sheds/sheds.csv")
        let imported = try DossierBinary.run(["import", "--create", "sheds", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        let outcome = try #require(imported.outcomes.first)
        #expect(outcome["status"] as? String == "imported")
        #expect(outcome["reading"] as? String
                == "4 rows -> 4 records, 0 problems; dates M/D/Y in 'Shed completed' (from 3/14/2024); subjects in 'Snake' (by its values); kind 'shedding' from the file's name")
        #expect(try records("pets/nagini").map { "\($0["date"]!) \($0["text"]!)" } == ["2024-03-14 clean, one piece", "2024-04-30 Nagini, 4/30/2024"])
        #expect(try records("pets/kaa").map { "\($0["date"]!)" } == ["2024-03-22", "2024-05-02"])
    }

    @Test("A German sheet with its dates under 'Datum' (24.01.2024), a date header in German, is read day-first and filed")
    func datumIsADateColumn() throws {
        try folder.write("""
            Datum;Tier;Gewicht [g];Bemerkung
            03.01.2024;Nagini;412;
            24.01.2024;Nagini;418,5;nach Häutung
            07.02.2024;Kaa;955;

            """, to: "gewichte.csv")
        let imported = try DossierBinary.run(["import", "--create", "gewichte.csv", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.outcomes.first?["reading"] as? String
                == "3 rows -> 3 records, 0 problems; dates D/M/Y in 'Datum' (from 24.01.2024); subjects in 'Tier' (by its values); "
                + "kind 'weight' from the file's name; 'Gewicht [g]' -> g; kept as text: 'Bemerkung'")
        let nagini = try records("pets/nagini")
        #expect(nagini.map { "\($0["date"]!)" } == ["2024-01-03", "2024-01-24"])
        let weights = nagini.compactMap { ($0["measurements"] as? [[String: Any]])?.first?["value"] as? Double }
        #expect(weights == [412, 418.5])
        #expect(try records("pets/kaa").map { "\($0["date"]!)" } == ["2024-02-07"])
    }

    @Test("A log of '2024-03-01, fed' lines is no table: its first line is an entry, not a header")
    func aLogWithCommasIsNoTable() throws {
        try folder.write("2024-03-01, fed 2 crickets\n2024-03-02, shed\n2024-03-04, weight 412g\n", to: "logs/nagini.txt")
        let imported = try DossierBinary.run(["import", "logs", "--library", "Library", "--subject", "pets/nagini"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(try records("pets/nagini").map { "\($0["date"]!)" } == ["2024-03-01", "2024-03-02", "2024-03-04"])
    }

    @Test("With a start and an end, a shed is dated by its end and a nap by its start; both with times give the duration")
    func startAndEndColumns() throws {
        try folder.write("""
            Snake,Shed started,Shed completed,Notes\r
            Nagini,2024-03-09,2024-03-14,"blue eyes on the 9th"\r
            Kaa,2024-04-20,2024-04-23,\r

            """, to: "sheds/shedding.csv")
        try folder.write("""
            Child,Start,End,Type\r
            Mina,2024-03-05 23:10,01:40,night sleep\r
            Mina,2024-03-06 13:05,2024-03-06 14:20,nap\r

            """, to: "sleeps/sleep.csv")
        let imported = try DossierBinary.run(["import", "--create", "sheds", "sleeps", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        let sheds = imported.outcomes.first { ($0["source"] as? String)?.hasSuffix("shedding.csv") == true }
        #expect(sheds?["reading"] as? String == "2 rows -> 2 records, 0 problems; dates in 'Shed started' (by its values); "
                + "ends in 'Shed completed'; subjects in 'Snake' (by its values); kind 'shedding' from the file's name")
        #expect(try records("pets/nagini").map { "\($0["date"]!) \($0["kind"]!)" } == ["2024-03-14 shedding"])
        #expect(try records("pets/kaa").map { "\($0["date"]!) \($0["kind"]!)" } == ["2024-04-23 shedding"])
        let sleeps = try records("children/mina").map { record in
            "\(record["date"]!) " + ((record["measurements"] as? [[String: Any]])?.map { "\($0["name"]!)=\($0["value"]!) \($0["unit"]!)" } ?? [])
                .joined(separator: " ")
        }
        #expect(sleeps == ["2024-03-05T23:10 duration=150 min", "2024-03-06T13:05 duration=75 min"])
    }

    @Test("An end before its start, or weeks after it, is a problem and gives no duration; the end is kept on the record; a nap across the spring clock change lasts the hour it did")
    func impossibleSpans() throws {
        // A library whose clocks are New York's, where 2024-03-10 02:00 did not happen.
        #expect(try DossierBinary.run(["init", "NY", "--time-zone", "America/New_York"], in: folder.url).status == 0)
        #expect(try DossierBinary.run(["subjects", "add", "children/mina", "--name", "Mina", "--library", "NY"], in: folder.url).status == 0)
        try folder.write("""
            Child,Start,End,Type\r
            Mina,2024-03-01 14:00,2024-03-01 13:00,nap\r
            Mina,2024-03-02 10:00,2024-04-01 10:00,nap\r
            Mina,2024-03-10 01:30,2024-03-10 03:30,nap\r

            """, to: "sleeps/sleep.csv")
        let imported = try DossierBinary.run(["import", "--create", "sleeps", "--library", "NY", "--json"], in: folder.url)
        #expect(imported.status == 3, "\(imported.standardError)")
        let path = folder.path("sleeps/sleep.csv")
        #expect(imported.outcomes.first?["problems"] as? [String] == [
            "\(path): line 2: it ends (2024-03-01T13:00) before it starts (2024-03-01T14:00); no duration taken",
            "\(path): line 3: it ends 30 days after it starts; no duration taken",
        ])
        #expect(try FiledRecords.lines(of: "children/mina", in: folder, library: "NY") == [
            "2024-03-01T14:00 sleep end:2024-03-01T13:00", "2024-03-02T10:00 sleep end:2024-04-01T10:00",
            "2024-03-10T01:30 sleep duration=60 min end:2024-03-10T03:30",
        ])
    }
}
