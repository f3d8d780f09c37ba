import DossierCore
import DossierTestSupport
import Foundation
import Testing

/// A quarantined file can be seen through to its end from the command line: filed under the
/// subject a person names, or deleted, and deleted only once a person has said so.
@Suite("The quarantine can be finished from the command line, and nothing in it is deleted without consent")
struct QuarantineCommandSafetyTests {
    static let day = "2026-11-25"
    static let noSubject = "no subject: give --subject KIND/ID, or put the file under a pets/<id> or children/<id> folder"

    /// A library (with pets/leo) and sources quarantined as the daemon quarantines them: moved
    /// out of the inbox with their notes.
    static func quarantined(_ sources: [(name: String, bytes: [UInt8], stage: ImportStage, reason: String)],
                            in folder: TemporaryFolder) throws -> [QuarantineEntry] {
        let added = try DossierBinary.run(["subjects", "add", "pets/leo", "--name", "레오", "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        let quarantine = Quarantine(layout: LibraryLayout(root: folder.url.appendingPathComponent("Library")))
        return try sources.map { source in
            let path = try folder.write(source.bytes, to: "inbox/\(source.name)")
            var info = stat()
            #expect(stat(path, &info) == 0)
            return try quarantine.admit(SourceFile(path: path, info: info, namedFolder: folder.path("inbox")),
                                        stage: source.stage, reason: source.reason,
                                        at: ISO8601DateFormatter().date(from: "\(day)T09:00:00Z")!)
        }
    }

    static let log = "2024-03-02 체중 45g\n2024-03-04 탈피\n"

    static func notes(in folder: TemporaryFolder) throws -> QuarantineEntry {
        try #require(try quarantined([("notes.txt", Array(log.utf8), .route, noSubject)], in: folder).first)
    }

    static func recordTexts(_ folder: TemporaryFolder, _ subject: String) -> [String] {
        let text = (try? String(contentsOfFile: folder.path("Library/\(subject)/records/2024.jsonl"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["text"] as? String
        }
    }

    // MARK: retry --subject

    @Test("A log quarantined for want of a subject is filed under the subject `quarantine retry --subject` names, and leaves the quarantine")
    func retryWithASubjectFilesIt() throws {
        let folder = try TemporaryFolder()
        let entry = try QuarantineCommandSafetyTests.notes(in: folder)
        #expect(entry.id == "\(QuarantineCommandSafetyTests.day)/notes.txt")

        let retried = try DossierBinary.run(["quarantine", "retry", entry.id, "--subject", "pets/leo", "--library", "Library"],
                                            in: folder.url)
        #expect(retried.status == 0, "\(retried.standardError)")
        #expect(retried.standardOutput.hasPrefix("imported \(folder.path("inbox/notes.txt")) -> "
            + "\(folder.path("Library/pets/leo/records/2024.jsonl")) (2 new records) (source removed)\n"), "\(retried.standardOutput)")
        #expect(retried.standardOutput.hasSuffix("\nNothing left in quarantine.\n"))
        #expect(QuarantineCommandSafetyTests.recordTexts(folder, "pets/leo") == ["2024-03-02 체중 45g", "2024-03-04 탈피"])
        #expect(folder.files(under: "Library/quarantine").isEmpty)
        let listed = try DossierBinary.run(["quarantine", "list", "--library", "Library"], in: folder.url)
        #expect(listed.standardOutput == "Nothing in quarantine in \(folder.path("Library")).\n")
    }

    @Test("quarantine retry --subject naming no subject is refused with the closest ids, the file stays quarantined, and --create makes the subject")
    func retryWithAnUnknownSubjectIsRefused() throws {
        let folder = try TemporaryFolder()
        let entry = try QuarantineCommandSafetyTests.notes(in: folder)

        let refused = try DossierBinary.run(["quarantine", "retry", entry.id, "--subject", "pets/lo", "--library", "Library"],
                                            in: folder.url)
        #expect(refused.status == 64)
        #expect(refused.standardOutput.isEmpty)
        #expect(refused.standardError.hasPrefix("Error: --subject: there is no subject pets/lo in \(folder.path("Library")) "
            + "(did you mean pets/leo?); give --create to make it, or add it first with `dossier subjects add`.\n"),
            "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/pets/lo")))
        #expect(folder.files(under: "Library/quarantine") == ["\(entry.id)", "\(entry.id).error.json"])

        let alone = try DossierBinary.run(["quarantine", "retry", entry.id, "--create", "--library", "Library"], in: folder.url)
        #expect(alone.status == 64)
        #expect(alone.standardError.hasPrefix("Error: --create makes the --subject's folder: give --subject too.\n"))

        let created = try DossierBinary.run(["quarantine", "retry", entry.id, "--subject", "pets/lo", "--create",
                                             "--library", "Library", "--json"], in: folder.url)
        #expect(created.status == 0, "\(created.standardError)")
        #expect(created.outcomes.first?["subject"] as? String == "pets/lo")
        #expect(QuarantineCommandSafetyTests.recordTexts(folder, "pets/lo") == ["2024-03-02 체중 45g", "2024-03-04 탈피"])
        #expect(folder.files(under: "Library/quarantine").isEmpty)
    }

    @Test("quarantine retry --all --subject files every quarantined source there; one that fails again stays, its note saying why now")
    func retryAllWithASubject() throws {
        let folder = try TemporaryFolder()
        let entries = try QuarantineCommandSafetyTests.quarantined(
            [("notes.txt", Array(QuarantineCommandSafetyTests.log.utf8), .route, QuarantineCommandSafetyTests.noSubject),
             ("blob.bin", [0x00, 0x01, 0x02, 0x03] + Array("binary".utf8), .sniff, "not a kind of file Dossier imports")],
            in: folder)
        let retried = try DossierBinary.run(["quarantine", "retry", "--all", "--subject", "pets/leo", "--library", "Library"],
                                            in: folder.url)
        #expect(retried.status == 1)
        #expect(retried.standardOutput.hasSuffix("\n1 still in quarantine (see `dossier quarantine list`).\n"), "\(retried.standardOutput)")
        #expect(QuarantineCommandSafetyTests.recordTexts(folder, "pets/leo") == ["2024-03-02 체중 45g", "2024-03-04 탈피"])
        #expect(folder.files(under: "Library/quarantine") == ["\(entries[1].id)", "\(entries[1].id).error.json"])
    }

    // MARK: remove

    @Test("quarantine remove on a terminal lists each file with where it came from and its size, and removes nothing unless the answer is yes",
          arguments: ["n", "", "yess", nil] as [String?])
    func removeOnATerminalAsks(answer: String?) throws {
        try #require(TerminalSession.isAvailable, "util-linux script gives the command a terminal")
        let folder = try TemporaryFolder()
        let entries = try QuarantineCommandSafetyTests.quarantined(
            [("notes.txt", Array(QuarantineCommandSafetyTests.log.utf8), .route, QuarantineCommandSafetyTests.noSubject),
             ("IMG_cut.jpg", Array(repeating: 0xFF, count: 2_500), .read, "Premature end of JPEG file")],
            in: folder)
        let question = "Remove 2 quarantined files for good? [y/N] "
        let session = try TerminalSession.run(["quarantine", "remove", "--all", "--library", "Library"], in: folder.url,
                                              answering: answer, after: question)
        #expect(session.status == 1)
        // Listed as `quarantine list` lists them: by day, then by name.
        #expect(session.screen == "\(entries[1].id)\n    from \(folder.path("inbox/IMG_cut.jpg")) (2.5 KB)\n"
            + "\(entries[0].id)\n    from \(folder.path("inbox/notes.txt")) (40 bytes)\n"
            + question + (answer ?? "") + "\nNothing removed.\n")
        #expect(folder.files(under: "Library/quarantine").count == 4)
    }

    @Test("quarantine remove on a terminal removes the files once the answer is yes, and says what it removed",
          arguments: ["y", "YES"])
    func removeOnATerminalWithYes(answer: String) throws {
        try #require(TerminalSession.isAvailable, "util-linux script gives the command a terminal")
        let folder = try TemporaryFolder()
        let entry = try QuarantineCommandSafetyTests.notes(in: folder)
        let question = "Remove 1 quarantined file for good? [y/N] "
        let session = try TerminalSession.run(["quarantine", "remove", entry.id, "--library", "Library"], in: folder.url,
                                              answering: answer, after: question)
        #expect(session.status == 0)
        #expect(session.screen == "\(entry.id)\n    from \(folder.path("inbox/notes.txt")) (40 bytes)\n"
            + question + answer + "\nRemoved \(entry.id) (from \(folder.path("inbox/notes.txt"))).\n")
        #expect(folder.files(under: "Library/quarantine").isEmpty)
    }

    @Test("quarantine remove with no terminal to ask on removes nothing without --yes, and says to give it (status 64)")
    func removeWithoutATerminalRefuses() throws {
        let folder = try TemporaryFolder()
        let entry = try QuarantineCommandSafetyTests.notes(in: folder)
        let refused = try DossierBinary.run(["quarantine", "remove", entry.id, "--library", "Library"], in: folder.url)
        #expect(refused.status == 64)
        #expect(refused.standardOutput.isEmpty)
        #expect(refused.standardError == "dossier: quarantine remove deletes for good, and there is no terminal to ask on; "
            + "nothing removed. Give --yes to remove without being asked.\n")
        #expect(folder.files(under: "Library/quarantine") == ["\(entry.id)", "\(entry.id).error.json"])
    }

    @Test("quarantine remove --yes removes without asking and says what it removed; --all removes every one; neither ids nor --all is refused")
    func removeWithYes() throws {
        let folder = try TemporaryFolder()
        let entries = try QuarantineCommandSafetyTests.quarantined(
            [("notes.txt", Array(QuarantineCommandSafetyTests.log.utf8), .route, QuarantineCommandSafetyTests.noSubject),
             ("a.bin", [0x00, 0x01], .sniff, "not a kind of file Dossier imports"),
             ("b.bin", [0x00, 0x02], .sniff, "not a kind of file Dossier imports")],
            in: folder)
        let neither = try DossierBinary.run(["quarantine", "remove", "--yes", "--library", "Library"], in: folder.url)
        #expect(neither.status == 64)
        #expect(neither.standardError.hasPrefix("Error: Give the ids of quarantined sources, or --all.\n"))

        let one = try DossierBinary.run(["quarantine", "remove", entries[0].id, "--yes", "--library", "Library"], in: folder.url)
        #expect(one.status == 0, "\(one.standardError)")
        #expect(one.standardOutput == "Removed \(entries[0].id) (from \(folder.path("inbox/notes.txt"))).\n")
        #expect(one.standardError.isEmpty)

        let all = try DossierBinary.run(["quarantine", "remove", "--all", "-y", "--library", "Library"], in: folder.url)
        #expect(all.status == 0, "\(all.standardError)")
        #expect(all.standardOutput == "Removed \(entries[1].id) (from \(folder.path("inbox/a.bin"))).\n"
            + "Removed \(entries[2].id) (from \(folder.path("inbox/b.bin"))).\n")
        #expect(folder.files(under: "Library/quarantine").isEmpty)

        let empty = try DossierBinary.run(["quarantine", "remove", "--all", "--library", "Library"], in: folder.url)
        #expect(empty.status == 0)
        #expect(empty.standardOutput == "Nothing in quarantine in \(folder.path("Library")).\n")
    }
}
