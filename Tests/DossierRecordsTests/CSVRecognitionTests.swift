import DossierCore
import Foundation
import DossierTestSupport
import Testing
@testable import DossierRecords

/// What makes a text file a CSV file, and which of its columns says whose rows they are.
@Suite("Recognising CSV exports as they really are")
struct CSVRecognitionTests {
    /// A baby tracker's diaper export: CRLF, `"1/13/26, 15:58"` stamps, and the Note field left
    /// out of every row that has none.
    static let diaperExport = """
        Baby,Time,Status,Note\r
        Mina,"1/13/26, 15:58",Wet\r
        Mina,"1/13/26, 12:41",Dirty,blowout - changed onesie too\r
        Mina,"1/13/26, 09:05",Wet\r
        Mina,"1/12/26, 23:30",Mixed\r
        Mina,"1/12/26, 19:12",Wet\r

        """

    @Test("Rows that leave out empty trailing fields agree with their header: ',' is chosen, not the colon in every quoted time")
    func raggedRowsKeepTheirDelimiter() throws {
        let lines = CSVRecognitionTests.diaperExport.split(separator: "\n").map {
            TextLine(number: 0, text: String($0.dropLast()), terminator: "\r\n")
        }
        #expect(CSVDialectSniffer.sniff(lines).delimiter == ",")
        #expect(CSVImporter().canRead(head: Array(CSVRecognitionTests.diaperExport.utf8)))
    }

    @Test("A notepad log with commas is still no CSV")
    func aLogWithCommasIsNoCSV() {
        let log = "2024-03-01 fed 3 crickets, shed\n2024-03-02 weighed, 45g, looks good\nsoaked, warm\n"
        #expect(!CSVImporter().canRead(head: Array(log.utf8)))
    }

    @Test("A column whose values are subjects' names is the subject column, whatever its header")
    func subjectColumnByValues() throws {
        let mina = try Subject(parsing: "children/mina")
        let directory = SubjectDirectory(entries: [(mina, ["mina", "Mina", "민아"])])
        let rows = [["Mina", "1/13/26, 15:58", "4"], ["민아", "1/13/26, 12:10", "3.5"], ["Mina", "1/13/26, 09:00", ""]]
            .enumerated().map { CSVRow(line: $0.offset + 2, fields: $0.element) }
        let columns = CSVColumns(header: ["Kid", "Time", "Amount (oz.)"])
        #expect(columns.column(.subject) == nil)
        #expect(CSVImporter.subjectColumn(in: rows, columns: columns, directory: directory) == 0)
        #expect(columns.withSubjectColumn(at: 0).column(.subject)?.header == "Kid")
        // A note that names the child now and then is no subject column.
        let notes = [["1/13/26", "Mina laughed"], ["1/14/26", "Mina"], ["1/15/26", "rash"], ["1/16/26", "fever"], ["1/17/26", "ok"]]
            .enumerated().map { CSVRow(line: $0.offset + 2, fields: $0.element) }
        #expect(CSVImporter.subjectColumn(in: notes, columns: CSVColumns(header: ["Date", "What"]), directory: directory) == nil)
        // A header titled with the child's name routes every row to her.
        #expect(CSVImporter.subjectNamedByHeader(CSVColumns(header: ["Mina", "Time", "Amount (oz.)", "Note"]), directory: directory) == mina)
    }

    @Test("A file name in the plural gives the kind in the singular: weights.csv holds weights")
    func pluralFileNames() {
        let keywords = KeywordTable.builtIn
        #expect(CSVImporter.kind(fromFileName: "weights.csv", classifier: KeywordClassifier(table: keywords), hasNotes: false) == "weight")
        #expect(CSVImporter.kind(fromFileName: "Feedings.csv", classifier: KeywordClassifier(table: keywords), hasNotes: true) == "feeding")
        #expect(CSVImporter.kind(fromFileName: "medications.csv", classifier: KeywordClassifier(table: keywords), hasNotes: false) == "medication")
        #expect(CSVImporter.kind(fromFileName: "glass_tanks.csv", classifier: KeywordClassifier(table: keywords), hasNotes: false) == "glass-tank")
        #expect(CSVImporter.singular("diapers_log 2024") == "diaper_log 2024")
    }

    @Test("A header that is a unit alone measures what the unit does; one letter is no unit")
    func unitHeaders() {
        #expect(CSVColumns.role(of: "grams") == .measurement(name: "weight", unit: .grams, factor: 1))
        #expect(CSVColumns.role(of: "kg") == .measurement(name: "weight", unit: .grams, factor: 1000))
        #expect(CSVColumns.role(of: "ml") == .measurement(name: "amount", unit: .millilitres, factor: 1))
        #expect(CSVColumns.role(of: "g") == .text)
        #expect(CSVColumns.role(of: "m") == .text)
    }

    @Test("A profile row's kind comes from its id (pets/rex) or, for an animal, from its species")
    func profileKinds() throws {
        let utc = TimeZone(identifier: "UTC")!
        let qualified = ProfileFields.profile(from: ["id": "children/hana", "name": "하나", "born": "2024-02-10"],
                                              defaultKind: nil, timeZone: utc)
        #expect(try qualified.get().subject == Subject(parsing: "children/hana"))
        let animal = ProfileFields.profile(from: ["id": "rex", "name": "Rex", "species": "leopard gecko"], defaultKind: nil, timeZone: utc)
        #expect(try animal.get().subject == Subject(parsing: "pets/rex"))
        let unknown = ProfileFields.profile(from: ["id": "hana", "name": "하나"], defaultKind: nil, timeZone: utc)
        #expect(throws: ProfileFields.Failure.missing("kind for '하나' (pets or children)")) { try unknown.get() }
    }

    @Test("A header of subjects needs something only a subject has: a contact list (id, name, email, phone) is none")
    func profileHeaders() {
        #expect(ProfileColumns(header: ["id", "name", "born", "species"]) != nil)
        #expect(ProfileColumns(header: ["id", "name", "kind"]) != nil)
        #expect(ProfileColumns(header: ["id", "name", "email", "phone"]) == nil)
        #expect(ProfileColumns(header: ["id", "name", "aliases", "notes"]) == nil)
    }

    @Test("Download and copy suffixes are taken off a file's name before it names a kind", arguments: [
        ("BabyRecords (1)", "BabyRecords"), ("weights-2", "weights"), ("feeding copy", "feeding"), ("sleep_1", "sleep"),
        ("log copy 3", "log"), ("Feeding Copy (2)", "Feeding"), ("log-2024", "log-2024"), ("(1)", "(1)"), ("weights", "weights"),
        ("weights2", "weights"), ("log2024", "log2024")
    ])
    func copySuffixesAreTakenOff(name: String, stem: String) {
        #expect(CSVImporter.withoutCopySuffix(name) == stem)
    }
}
