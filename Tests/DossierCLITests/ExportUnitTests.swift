import Foundation
import DossierTestSupport
import Testing

/// Numbers an export writes without a unit: read in the unit the library names, or the only one
/// plausible for the subject (and said, and listed as a problem), or kept as text and reported.
/// Never grams because nothing said otherwise.
@Suite("A number with no unit is never silently taken as grams")
struct ExportUnitTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        for arguments in [["children/mina", "--name", "Mina", "--born", "2023-11-02"],
                          ["pets/leo", "--name", "Leo", "--species", "Leopard Gecko"],
                          ["pets/rex", "--name", "Rex"]] {
            let added = try DossierBinary.run(["subjects", "add"] + arguments + ["--library", "Library"], in: folder.url)
            #expect(added.status == 0, "\(added.standardError)")
        }
    }

    func records(_ subject: String) throws -> [String] {
        try FiledRecords.lines(of: subject, in: folder)
    }

    /// A weight export in the shape Baby Buddy writes: the child, the date, the weight in kg with
    /// no unit anywhere, and notes.
    static let babyBuddyWeights = """
        Child,Date,Weight,Notes\r
        Mina,2024-01-09,4.1,\r
        Mina,2024-02-09,5.25,"after the bath, calm"\r
        Mina,2024-03-11,8.3,checkup\r

        """

    @Test("A child's weight of 8.3 with no unit is 8.3 kg, the only unit plausible for a child: said in the line and listed as a problem")
    func aChildsUnitlessWeightIsKilograms() throws {
        try folder.write(ExportUnitTests.babyBuddyWeights, to: "export/weight.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 3, "\(imported.standardError)")
        let outcome = try #require(imported.outcomes.first)
        #expect(outcome["reading"] as? String == "3 rows -> 3 records, 1 problem; dates in 'Date'; subjects in 'Child'; kind 'weight' from the file's name; "
                + "'Weight' has no unit: kg, the only unit plausible for a child under two")
        #expect(outcome["problems"] as? [String] == [
            folder.url.appendingPathComponent("export/weight.csv").path + ": column 'Weight' has no unit: 3 values read as kg, the only "
                + "unit that makes each plausible for a child under two (300 g to 20 kg, WHO Child Growth Standards, Intergrowth-21st); to be sure, "
                + #"say its unit in the header ('Weight (kg)') or in config/records.json ({"units": {"weight": "kg"}})"#,
        ])
        #expect(try records("children/mina") == [
            "2024-01-09 weight Weight=4100 g", "2024-02-09 weight Weight=5250 g", "2024-03-11 weight Weight=8300 g",
        ])
        let problems = try DossierBinary.run(["problems", "--library", "Library"], in: folder.url)
        #expect(problems.standardOutput.contains("column 'Weight' has no unit: 3 values read as kg"), "\(problems.standardOutput)")
    }

    @Test("The unit config/records.json names for the kind settles it: no guess, no problem, and the line says where it came from")
    func theLibrarysUnitSettlesIt() throws {
        try folder.write(#"{"units": {"weight": "kg"}}"#, to: "Library/config/records.json")
        try folder.write(ExportUnitTests.babyBuddyWeights, to: "export/weight.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.outcomes.first?["reading"] as? String == "3 rows -> 3 records, 0 problems; dates in 'Date'; "
                + "subjects in 'Child'; kind 'weight' from the file's name; 'Weight' has no unit: kg as config/records.json says for 'weight'")
        #expect(imported.outcomes.first?["problems"] == nil || (imported.outcomes.first?["problems"] as? [String])?.isEmpty == true)
        #expect(try records("children/mina").last == "2024-03-11 weight Weight=8300 g")
    }

    @Test("A baby's weight of 3,400 with no unit is grams, 8.3 is kilograms, each value by itself; 150 is neither, for a child under two")
    func gramsAndKilogramsEachByTheirValue() throws {
        // 150 is neither: 150 g is too little for any baby, and 150 kg too much for a four-month-old.
        try folder.write("Date,Name,Weight\r\n2023-11-02,Mina,3400\r\n2024-03-11,Mina,8.3\r\n2024-03-12,Mina,150\r\n", to: "export/growth.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 3)
        #expect((imported.outcomes.first?["reading"] as? String)?.hasSuffix(
            "'Weight' has no unit: 1 g, the only unit plausible for a child under two, 1 kg, the only unit plausible for a child under two, "
            + "1 kept as text (see the problems)") == true,
                "\(imported.outcomes)")
        #expect(try records("children/mina") == ["2023-11-02 growth Weight=3400 g", "2024-03-11 growth Weight=8300 g",
                                                  "2024-03-12 growth Weight:150"])
    }

    @Test("A gecko's weight of 45 with no unit is plausible as g and as kg for a reptile: kept as text, and each row is a problem")
    func anAmbiguousWeightIsKeptAsTextAndReported() throws {
        try folder.write("날짜,이름,체중\r\n2024-05-01,Leo,45\r\n2024-06-01,Leo,52\r\n", to: "export/체중.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 3)
        let path = folder.url.appendingPathComponent("export/체중.csv").path
        #expect(imported.outcomes.first?["problems"] as? [String] == [2, 3].map { line in
            "\(path): line \(line): '\(line == 2 ? "45" : "52")' in column '체중' has no unit, and is plausible in g and kg for a reptile "
                + "(0.5 g to 100 kg, keepers' references, hatchling anole to sulcata tortoise); kept as text: say its unit in the header "
                + #"('체중 (unit)') or in config/records.json ({"units": {"weight": "…"}})"#
        })
        #expect((imported.outcomes.first?["reading"] as? String)?.hasSuffix(
            "2 rows -> 2 records, 2 problems; dates in '날짜'; subjects in '이름'; kind 'weight' from the file's name; '체중' has no unit: kept as text (see the problems)")
                == true, "\(imported.outcomes)")
        #expect(try records("pets/leo") == ["2024-05-01 weight 체중:45", "2024-06-01 weight 체중:52"])
    }

    @Test("A pet of no known class has nothing to judge a unitless number by: kept as text and reported")
    func aPetOfNoClassIsNotGuessedFor() throws {
        try folder.write("Date,Name,Weight\r\n2024-05-01,Rex,450\r\n", to: "export/weights.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 3)
        #expect((imported.outcomes.first?["problems"] as? [String])?.first?.hasSuffix(
            "line 2: '450' in column 'Weight' has no unit, and pets/rex's class is not known (give it a species or class) to judge it by; "
            + #"kept as text: say its unit in the header ('Weight (unit)') or in config/records.json ({"units": {"weight": "…"}})"#) == true,
                "\(imported.outcomes)")
        #expect(try records("pets/rex") == ["2024-05-01 weight Weight:450"])
    }

    @Test("Quantity with its unit in the next column (Extra data = lbs) is that many pounds; ounces in a feeding's cell are fluid")
    func aUnitColumnBesideTheQuantity() throws {
        try folder.write("""
            Date,Name,Type,Quantity,Extra data,Note\r
            2024-04-01 09:00,Mina,Weight,20,lbs,\r
            2024-04-01 10:30,Mina,Feeding,4,oz,bottle\r
            2024-04-02 09:00,Mina,Weight,20.5,lbs,clinic scale\r

            """, to: "export/activities.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.outcomes)")
        #expect(imported.outcomes.first?["reading"] as? String == "3 rows -> 3 records, 0 problems; dates in 'Date'; subjects in 'Name'; kind from 'Type'; "
                + "'Quantity' has no unit: 2 lbs from 'Extra data', 1 oz from 'Extra data'")
        #expect(try records("children/mina") == [
            "2024-04-01T09:00 weight Quantity=9071.8474 g", "2024-04-01T10:30 feeding Quantity=118.294 ml",
            "2024-04-02T09:00 weight Quantity=9298.6436 g",
        ])
    }

    @Test("Quantity 8.2 with oz only in the note is 8.2 fl oz of a feeding; the note's number must be the value's")
    func aUnitInTheNote() throws {
        try folder.write("""
            Date,Name,Type,Quantity,Note\r
            2024-04-01 10:30,Mina,Bottle,8.2,8.2 oz formula\r
            2024-04-01 14:30,Mina,Bottle,6,"gave 2 oz, then 4 more"\r

            """, to: "export/feeds.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        let path = folder.url.appendingPathComponent("export/feeds.csv").path
        let problems = imported.outcomes.first?["problems"] as? [String] ?? []
        #expect(problems.count == 1 && problems[0] == "\(path): line 3: '6' in column 'Quantity' has no unit, and the note speaks of oz for another number; kept as text: "
                + #"say its unit in the header ('Quantity (unit)') or in config/records.json ({"units": {"feeding": "…"}})"#,
                "\(problems)")
        // The note's own "2 oz" is read as the note says; the column's 6 is not read as 6 ml.
        #expect(try records("children/mina") == ["2024-04-01T10:30 feeding Quantity=242.5027 ml",
                                                  "2024-04-01T14:30 feeding amount=59.147 ml Quantity:6"])
    }

    @Test("A keeper's log writing 체중 45 for a gecko keeps 45 as text and says why; 520 can only be grams, and the guess is one problem for the log")
    func aLogsUnitlessWeights() throws {
        try folder.write("""
            2024.05.01 레오 체중 45
            2024.05.08 Leo 귀뚜라미 6마리
            2024.05.15 Leo 체중 47 탈피 직후
            2024.06.01 Leo weight 520
            2024.07.01 Leo weight 530

            """, to: "logs/leo.txt")
        try DossierBinary.run(["subjects", "edit", "pets/leo", "--alias", "레오", "--library", "Library"], in: folder.url)
        let imported = try DossierBinary.run(["import", "--create", "logs", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 3, "\(imported.standardError)")
        let path = folder.url.appendingPathComponent("logs/leo.txt").path
        #expect(imported.outcomes.first?["problems"] as? [String] == [
            "\(path): 2 entries (the first on line 1): the weight's number has no unit, and is plausible in g and kg for a reptile "
                + "(0.5 g to 100 kg, keepers' references, hatchling anole to sulcata tortoise); kept as text: write its unit after the "
                + #"number, or name it in config/records.json ({"units": {"weight": "…"}})"#,
            "\(path): 2 entries (the first on line 4): a weight written with no unit was read as g, the only unit that makes it "
                + "plausible for a reptile (0.5 g to 100 kg, keepers' references, hatchling anole to sulcata tortoise); to be sure, write "
                + #"its unit after the number, or name it in config/records.json ({"units": {"weight": "g"}})"#,
        ])
        #expect(try records("pets/leo") == ["2024-05-01 weight weight:45", "2024-05-08 feeding cricket=6 count", "2024-05-15 weight weight:47",
                                            "2024-06-01 weight weight=520 g", "2024-07-01 weight weight=530 g"])
    }

    @Test("The library's unit is checked too: 3,400 kg for a child, or a weight below zero, is kept as text and reported")
    func configuredUnitsAreStillChecked() throws {
        try folder.write(#"{"units": {"weight": "kg"}}"#, to: "Library/config/records.json")
        try folder.write("Child,Date,Weight\r\nMina,2024-01-09,4.1\r\nMina,2024-02-09,3400\r\nMina,2024-03-09,-5\r\n", to: "export/weight.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 3)
        let path = folder.url.appendingPathComponent("export/weight.csv").path
        #expect(imported.outcomes.first?["problems"] as? [String] == [
            "\(path): line 3: '3400' in column 'Weight' has no unit; in kg, as config/records.json says for 'weight', it is not plausible "
                + "for a child under two (300 g to 20 kg, WHO Child Growth Standards, Intergrowth-21st); kept as text",
            "\(path): line 4: '-5' in column 'Weight' is below zero, which no weight is; kept as text",
        ])
        #expect(try records("children/mina") == ["2024-01-09 weight Weight=4100 g", "2024-02-09 weight Weight:3400", "2024-03-09 weight Weight:-5"])
    }

    @Test("config/records.json is refused, with a plain reason, for a unit that measures something else, a count word, keys alike but for case, or a number")
    func badUnitSettingsAreRefused() throws {
        for (settings, reason) in [
            (#"{"units": {"weight": "ml"}}"#, "'ml' (for 'weight') does not measure a weight"),
            (#"{"units": {"feeding": "x"}}"#, "'x' (for 'feeding') is not a unit Dossier knows"),
            (#"{"units": {"Weight": "kg", "weight": "g"}}"#, "'Weight' and 'weight' under 'units' name the same thing; keep one"),
            (#"{"units": {"weight": 1000}}"#, "'units.weight' is not what it should be"),
        ] {
            try folder.write(settings, to: "Library/config/records.json")
            try folder.write(ExportUnitTests.babyBuddyWeights, to: "export/weight.csv")
            let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library"], in: folder.url)
            #expect(imported.status != 0 && imported.status != 3, "\(settings)")
            #expect(imported.standardOutput.contains(reason), "\(settings): \(imported.standardOutput)")
            #expect(imported.standardOutput.contains("config/records.json"), "\(imported.standardOutput)")
        }
    }

    @Test("A column of sizes (S, M, L) is no unit column: 3 large crickets are not 3 litres")
    func sizesAreNoUnits() throws {
        try folder.write("Date,Amount,Size,Note\n2024-03-01,3,L,crickets\n2024-03-02,4,L,crickets\n", to: "export/pets/leo/feedings.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 3)
        #expect(try records("pets/leo") == ["2024-03-01 feeding Amount:3 Size:L", "2024-03-02 feeding Amount:4 Size:L"])
    }

    @Test("A column the first rows show as units, but whose later values mostly are not, is no unit column: dropped, and said")
    func aUnitColumnIsCheckedAgainstEveryValue() throws {
        var rows = ["Date,Name,Type,Quantity,Extra data"]
        for day in 1...33 { rows.append("2024-01-\(String(format: "%02d", (day - 1) % 28 + 1)) 09:\(String(format: "%02d", day)),Mina,Weight,20,lbs") }
        for day in 1...20 { rows.append("2024-02-\(String(format: "%02d", day)) 09:00,Mina,Weight,9.\(day % 10),scale at the clinic \(day)") }
        try folder.write(rows.joined(separator: "\r\n") + "\r\n", to: "export/activities.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        let problems = imported.outcomes.first?["problems"] as? [String] ?? []
        #expect(problems.first == folder.url.appendingPathComponent("export/activities.csv").path
                + ": column 'Extra data' looked like units in its first rows, but only 33 of its 53 values are: kept as text", "\(problems)")
        // Without the unit column, the weights settle by plausibility for a baby: 20 and 9.x are kg.
        #expect(try records("children/mina").last == "2024-02-20T09:00 weight Quantity=9000 g Extra data:scale at the clinic 20")
    }
}
