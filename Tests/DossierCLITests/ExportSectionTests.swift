import Foundation
import DossierTestSupport
import Testing

/// Files that hold more than one table, and sheets that hold one column per animal.
@Suite("Several tables in one file, and one column per subject, are each read by their own header")
struct ExportSectionTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    func add(_ arguments: String...) throws {
        let added = try DossierBinary.run(["subjects", "add"] + arguments + ["--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
    }

    func records(_ subject: String) throws -> [String] {
        try FiledRecords.lines(of: subject, in: folder)
    }

    @Test("A Hatch-style export of several tables (=== BEGIN Feedings ===, each with its header) gives each table's rows its columns and kind")
    func markedSectionsAreTablesOfTheirOwn() throws {
        try add("children/mina", "--name", "Mina")
        try folder.write("""
            === BEGIN Feedings ===\r
            Start Time,End Time,Feeding Type,Amount,Unit,Notes\r
            2024-03-05 07:10,2024-03-05 07:30,Bottle,4,oz,\r
            2024-03-05 10:40,2024-03-05 11:00,Bottle,120,ml,"sleepy, slow"\r
            === END Feedings ===\r
            \r
            === BEGIN Diapers ===\r
            Time,Diaper Type,Notes\r
            2024-03-05 08:02,Wet,\r
            2024-03-05 12:30,Dirty,blowout\r
            === END Diapers ===\r

            """, to: "dump/children/mina/hatch_export.csv")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.outcomes)")
        #expect(imported.outcomes.first?["reading"] as? String
                == "[Feedings] 2 rows -> 2 records, 0 problems; dates in 'Start Time'; ends in 'End Time'; kind 'feeding' from the section's name; "
                + "sub-kind from 'Feeding Type'; 'Amount' has no unit: 1 oz from 'Unit', 1 ml from 'Unit'"
                + " | [Diapers] 2 rows -> 2 records, 0 problems; times in 'Time'; kind 'diaper' from the section's name; "
                + "sub-kind from 'Diaper Type'")
        #expect(try records("children/mina") == [
            "2024-03-05T07:10 feeding duration=20 min Amount=118.294 ml end:2024-03-05T07:30 subkind:Bottle", "2024-03-05T08:02 diaper subkind:Wet",
            "2024-03-05T10:40 feeding duration=20 min Amount=120 ml end:2024-03-05T11:00 subkind:Bottle", "2024-03-05T12:30 diaper subkind:Dirty",
        ])
    }

    @Test("A blank line and a new header start a new table, read by its own columns")
    func aNewHeaderAfterABlankLine() throws {
        try add("pets/leo", "--name", "Leo", "--species", "Leopard Gecko")
        try folder.write("""
            date,name,weight (g)
            2024-05-01,Leo,61
            2024-06-01,Leo,63

            date,name,kind,food,count
            2024-05-03,Leo,feeding,cricket,6
            2024-05-10,Leo,shedding,,

            """, to: "dump/leo.csv")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.outcomes)")
        // `leo.csv` names the gecko, not a kind: the weight column says what its rows are.
        #expect(imported.outcomes.first?["reading"] as? String
                == "[table at line 1] 2 rows -> 2 records, 0 problems; dates in 'date'; subjects in 'name'; kind 'weight' from 'weight (g)'; 'weight (g)' -> g"
                + " | [table at line 5] 2 rows -> 2 records, 0 problems; dates in 'date'; subjects in 'name'; kind from 'kind'; 'count' -> count; kept as text: 'food'")
        #expect(try records("pets/leo") == ["2024-05-01 weight weight=61 g", "2024-05-03 feeding count=6 count food:cricket", "2024-05-10 shedding",
                                            "2024-06-01 weight weight=63 g"])
    }

    @Test("A sheet with a date column and one weight column per animal, headed by their names or aliases, files each as its animal's")
    func aWideSheetGivesEachColumnItsSubject() throws {
        try add("pets/kruemel", "--name", "Krümel", "--class", "mammal")
        try add("pets/flocke", "--name", "Flocke", "--alias", "Flo", "--class", "mammal")
        try folder.write("""
            Datum;Krümel;Flo (g);Bemerkung
            03.02.2024;312;298,5;
            10.02.2024;318;;Flo beim Tierarzt
            17.02.2024;45;301;

            """, to: "dump/weights.csv")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 3, "\(imported.outcomes)")
        let outcome = try #require(imported.outcomes.first)
        #expect(outcome["reading"] as? String == "3 rows -> 5 records, 2 problems; dates D/M/Y in 'Datum' (from 17.02.2024); "
                + "kind 'weight' from the file's name; one column per subject: 'Krümel' -> pets/kruemel, 'Flo (g)' -> pets/flocke in g; "
                + "'Krümel' has no unit: 2 g, the only unit plausible for a mammal, 1 kept as text (see the problems); kept as text: 'Bemerkung'")
        #expect(try records("pets/kruemel") == ["2024-02-03 weight weight=312 g", "2024-02-10 weight weight=318 g Bemerkung:Flo beim Tierarzt",
                                                "2024-02-17 weight weight:45"])
        #expect(try records("pets/flocke") == ["2024-02-03 weight weight=298.5 g", "2024-02-17 weight weight=301 g"])
    }

    @Test("A note row that looks like a marker, and a dateless row of words, are rows with problems: the table goes on")
    func notesAndWordsAreNoNewTable() throws {
        try add("children/mina", "--name", "Mina")
        try folder.write("""
            Date,Type,Amount (ml),Note
            2024-03-01,Feeding,120,bottle
            ,,,"** weighed her at clinic **"
            [Vet said: stop formula]
            ,Sleep,,Day
            2024-03-02,Feeding,130,bottle

            """, to: "dump/children/mina/baby.csv")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 3)
        let path = folder.path("dump/children/mina/baby.csv")
        #expect(imported.outcomes.first?["problems"] as? [String] == [
            "\(path): line 3: no date in this row", "\(path): line 4: no date in this row, and no table's header follows it",
            "\(path): line 5: no date in this row",
        ])
        #expect(imported.outcomes.first?["reading"] as? String == "5 rows -> 2 records, 3 problems; dates in 'Date'; kind from 'Type'; "
                + "'Amount (ml)' -> ml")
        #expect(try records("children/mina") == ["2024-03-01 feeding Amount=120 ml", "2024-03-02 feeding Amount=130 ml"])
    }

    @Test("A wide sheet keeps its other columns on every subject's record as text, and takes a subject's column empty in the first rows")
    func aWideSheetKeepsItsOtherColumns() throws {
        try add("pets/rex", "--name", "Rex", "--class", "mammal")
        try add("pets/leo", "--name", "Leo", "--class", "mammal")
        var rows = ["Date,Rex (g),Leo (g),Crickets (count),Method"]
        for day in 1...40 { rows.append("2024-03-\(String(format: "%02d", (day - 1) % 28 + 1)),\(300 + day),\(day > 35 ? "\(70 + day)" : ""),,") }
        rows.append("2024-05-01,412,88,5,scale")
        try folder.write(rows.joined(separator: "\n") + "\n", to: "dump/weights.csv")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.outcomes)")
        #expect(imported.outcomes.first?["reading"] as? String == "41 rows -> 47 records, 0 problems; dates in 'Date'; "
                + "kind 'weight' from the file's name; one column per subject: 'Rex (g)' -> pets/rex in g, 'Leo (g)' -> pets/leo in g; "
                + "kept as text: 'Crickets (count)', 'Method'")
        let leo = try records("pets/leo")
        #expect(leo.count == 6)
        #expect(leo.last == "2024-05-01 weight weight=88 g Crickets (count):5 Method:scale")
        #expect(try records("pets/rex").last == "2024-05-01 weight weight=412 g Crickets (count):5 Method:scale")
    }

    @Test("A file that is one subject's (its name, its folder) is never a wide sheet: a column called like another pet is a column")
    func aSubjectsOwnFileIsNoWideSheet() throws {
        try add("pets/leo", "--name", "Leo", "--species", "Leopard Gecko")
        try add("pets/max", "--name", "Max", "--species", "Ball Python")
        try folder.write("Date,Min,Max,Note\n2024-03-01,24,32,temps ok\n", to: "dump/leo.csv")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.outcomes.first?["subject"] as? String == "pets/leo", "\(imported.outcomes)")
        #expect(try records("pets/max").isEmpty)
        // `Min` beside `Max` is a minimum, not minutes.
        #expect(try records("pets/leo") == ["2024-03-01 memo Max:32 Min:24"])
    }

    @Test("An export of hundreds of sections of one name is said as one table, with its rows summed, and each section's dates in their order")
    func manySectionsOfOneName() throws {
        try add("children/mina", "--name", "Mina")
        var text = ""
        for section in 0..<300 {
            let (month, day) = (section % 12 + 1, section % 28 + 1)
            text += "=== BEGIN Feedings ===\nDate,Amount (ml),Note\n\(month)/\(day)/2024,120,a\(section)\n\(month)/\(day)/2024,90,b\(section)\n=== END Feedings ===\n\n"
        }
        try folder.write(text, to: "dump/children/mina/export.csv")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.outcomes)")
        #expect(imported.outcomes.first?["reading"] as? String == "[Feedings, 300 tables] 600 rows -> 600 records, 0 problems; "
                + "dates M/D/Y in 'Date' (every date reads either way: the library's monthFirst is true); kind 'feeding' from the section's name; "
                + "'Amount (ml)' -> ml")
        let records = try records("children/mina")
        #expect(records.count == 600)
        #expect(records.first?.hasPrefix("2024-01-01 feeding Amount=") == true)
    }

    @Test("An export whose first section holds no dates (the baby's details) says so once and reads the sections after it")
    func aFirstSectionWithoutDates() throws {
        try add("children/mina", "--name", "Mina")
        try folder.write("""
            === BEGIN Baby ===
            Name,Born,Sex
            Mina,2024-01-01,F
            === END Baby ===

            === BEGIN Feedings ===
            Date,Name,Amount (ml),Note
            2024-03-01,Mina,120,bottle

            """, to: "dump/hatch.csv")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 3)
        #expect(imported.outcomes.first?["problems"] as? [String] == [
            folder.path("dump/hatch.csv") + ": lines 2-3: the table 'Baby' under 'Name,Born,Sex' has no date column; its rows are not "
                + "filed (the kept copy holds them)",
        ])
        #expect(try records("children/mina") == ["2024-03-01 feeding Amount=120 ml"])
    }

    @Test("A wide sheet's column may write its unit after the name without a bracket (Leo kg), and one row is enough")
    func aUnitAfterTheNameAndOneRow() throws {
        try add("pets/leo", "--name", "Leo", "--species", "Leopard Gecko")
        try add("children/mina", "--name", "Mina", "--born", "2024-01-01")
        try folder.write("Datum;Leo kg;Mina (kg)\n2024-08-04;0.053;8.6\n", to: "dump/weights.csv")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.outcomes)")
        #expect(try records("pets/leo") == ["2024-08-04 weight weight=53 g"])
        #expect(try records("children/mina") == ["2024-08-04 weight weight=8600 g"])
    }
}
