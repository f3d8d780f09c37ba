import DossierTestSupport
import Foundation
import Testing

/// What every command does alike: its JSON, its mistakes, what it names.
@Suite("The commands follow one set of conventions")
struct CommandLineConventionsTests {
    /// A library with photos, records, a problem and a subject with a profile.
    static func library(in folder: TemporaryFolder) throws {
        let added = try DossierBinary.run(["subjects", "add", "pets/leo", "--name", "Leo", "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        try folder.write("""
            2024-03-02 Leo weight 45g
            2024-03-03 Leo crickets x5
            2024-03-05 Rex shed in one piece

            """, to: "dump/notes.txt")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url)
        #expect(result.status == 3, "\(result.standardOutput)\(result.standardError)")
    }

    /// Every key of every object, however deep.
    static func keys(of value: Any) -> [String] {
        if let object = value as? [String: Any] {
            return object.keys.sorted() + object.values.flatMap(keys(of:))
        }
        if let array = value as? [Any] { return array.flatMap(keys(of:)) }
        return []
    }

    @Test("Every --json output uses camelCase keys and numbers as numbers")
    func jsonKeysAreCamelCase() throws {
        let folder = try TemporaryFolder()
        try CommandLineConventionsTests.library(in: folder)
        let commands: [[String]] = [
            ["import", "--create", "dump", "--json"], ["import", "--create", "dump", "--json", "--dry-run"], ["verify", "--json"],
            ["problems", "--json"], ["records", "pets/leo", "--json"], ["subjects", "list", "--json"],
            ["subjects", "show", "pets/leo", "--json"], ["quarantine", "list", "--json"], ["today", "--json"],
            ["remove", "pets/leo/records/2024.jsonl", "--json", "--dry-run"], ["move", "pets/leo/none.jpg", "--subject", "pets/leo", "--json"],
        ]
        for command in commands {
            let result = try DossierBinary.run(command + ["--library", "Library"], in: folder.url)
            #expect([0, 1, 3].contains(result.status), "\(command): \(result.standardError)")
            let lines = result.standardOutput.split(separator: "\n")
            #expect(lines.count == result.jsonLines.count, "\(command) printed a line that is not JSON: \(result.standardOutput)")
            let keys = result.jsonLines.flatMap(CommandLineConventionsTests.keys(of:))
            #expect(keys.allSatisfy { !$0.contains("_") && !$0.contains("-") && $0.first?.isLowercase == true }, "\(command): \(Set(keys).sorted())")
        }
        let imported = try DossierBinary.run(["import", "--create", "dump", "--json", "--library", "Library"], in: folder.url)
        let summary = try #require(imported.summary)
        #expect(summary["total"] is Int && summary["seconds"] is Double && summary["dryRun"] as? Bool == false)
    }

    @Test("A misspelt command is named, with the nearest commands, and exits 64")
    func misspeltCommands() throws {
        let folder = try TemporaryFolder()
        let result = try DossierBinary.run(["improt", "dump", "--library", "Library"], in: folder.url)
        #expect(result.status == 64)
        #expect(result.standardError == "Error: 'improt' is not a dossier command (did you mean 'import'?).\n"
            + "  See 'dossier --help' for the commands.\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library")))
    }

    @Test("A misspelt command below another (quarantine retyr) is named with the nearest of its commands")
    func misspeltInnerCommands() throws {
        let folder = try TemporaryFolder()
        let result = try DossierBinary.run(["quarantine", "retyr", "--library", "Library"], in: folder.url)
        #expect(result.status == 64)
        #expect(result.standardError == "Error: 'retyr' is not a command of dossier quarantine (did you mean 'retry'?).\n"
            + "  See 'dossier quarantine --help' for its commands.\n")
        // An argument the default command takes is no misspelt command.
        let listed = try DossierBinary.run(["problems", "--library", "Library"], in: folder.url)
        #expect(listed.status == 2)
    }

    @Test("verify --json says in JSON when the library cannot be used, as import --json does")
    func verifyJSONLibraryError() throws {
        let folder = try TemporaryFolder()
        let result = try DossierBinary.run(["verify", "--json", "--library", "nowhere"], in: folder.url)
        #expect(result.status == 2)
        let error = try #require(result.jsonLines.first?["libraryError"] as? [String: Any])
        #expect(error["code"] as? String == "no-library")
        #expect((error["message"] as? String)?.hasPrefix("there is no library at \(folder.path("nowhere"))") == true)
    }

    @Test("An option refused once its command runs prints that command's usage, not the top command's")
    func refusedOptionsShowTheirCommand() throws {
        let folder = try TemporaryFolder()
        try CommandLineConventionsTests.library(in: folder)
        let result = try DossierBinary.run(["import", "dump", "--subject", "pets/lepo", "--library", "Library"], in: folder.url)
        #expect(result.status == 64)
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.first == "Error: --subject: there is no subject pets/lepo in \(folder.path("Library")) (did you mean pets/leo?); "
            + "give --create to make it, or add it first with `dossier subjects add`.")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: dossier import ") == true, "\(result.standardError)")
        #expect(lines.last == "  See 'dossier import --help' for more information.")
    }

    @Test("The import summary names the library, in text and in --json")
    func summaryNamesTheLibrary() throws {
        let folder = try TemporaryFolder()
        try CommandLineConventionsTests.library(in: folder)
        let text = try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url)
        #expect(text.standardOutput.hasSuffix(" s (library \(folder.path("Library")))\n"), "\(text.standardOutput)")
        let json = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(json.summary?["library"] as? String == folder.path("Library"))
    }

    @Test("records takes a kind in the logs' own words, and days in the forms logs write them")
    func recordsTakesTheLogsWords() throws {
        let folder = try TemporaryFolder()
        try CommandLineConventionsTests.library(in: folder)
        let byKind = try DossierBinary.run(["records", "pets/leo", "--kind", "체중", "--library", "Library"], in: folder.url)
        #expect(byKind.status == 0, "\(byKind.standardError)")
        #expect(byKind.standardOutput.split(separator: "\n").map { String($0.prefix(26)) } == ["2024-03-02        weight  "])
        for since in ["2024년 3월 3일", "3/3/2024", "2024.3.3", "3 March 2024"] {
            let result = try DossierBinary.run(["records", "pets/leo", "--since", since, "--library", "Library"], in: folder.url)
            #expect(result.status == 0, "\(since): \(result.standardError)")
            #expect(result.standardOutput.split(separator: "\n").map { String($0.prefix(10)) } == ["2024-03-03"], "\(since)")
        }
        let yearless = try DossierBinary.run(["records", "pets/leo", "--since", "3월 3일", "--library", "Library"], in: folder.url)
        #expect(yearless.status == 64)
        #expect(yearless.standardError.hasPrefix("Error: --since: '3월 3일' is not a day: write it with its year"))
    }

    @Test("A value converted from another unit is shown to the decimals its source gave, and stored as converted")
    func convertedValuesAreShownAsGiven() throws {
        let folder = try TemporaryFolder()
        try CommandLineConventionsTests.library(in: folder)
        try folder.write("""
            2024-04-01 Leo milk 4 oz
            2024-04-02 Leo milk 4.5 oz
            2024-04-03 Leo weight 1.25 lb
            2024-04-04 Leo weight 0.05kg
            2024-04-05 Leo weight 45.5g

            """, to: "more/leo.txt")
        let imported = try DossierBinary.run(["import", "more", "--subject", "pets/leo", "--library", "Library"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardOutput)")
        let shown = try DossierBinary.run(["records", "pets/leo", "--since", "2024-04-01", "--library", "Library"], in: folder.url)
        #expect(shown.standardOutput.split(separator: "\n").map { $0.split(separator: "[").last.map(String.init) ?? "" } == [
            "milk 118 ml]", "milk 133 ml]", "weight 567 g]", "weight 50 g]", "weight 45.5 g]",
        ])
        let json = try DossierBinary.run(["records", "pets/leo", "--since", "2024-04-01", "--json", "--library", "Library"], in: folder.url)
        let first = try #require((json.jsonLines.first?["measurements"] as? [[String: Any]])?.first)
        #expect(first["value"] as? Double == 118.294)
        #expect(first["decimals"] as? Int == 0)
        #expect((json.jsonLines.last?["measurements"] as? [[String: Any]])?.first?["decimals"] == nil)
    }
}
