import DossierCore
import DossierTestSupport
import Foundation
import Glibc
import Testing

/// `dossier remove` and `dossier move`: a filed item taken out of the library, or across to
/// another subject, keeping every byte, recorded so that neither `verify` nor a later import
/// brings it back; and a filed file deleted by hand, which comes back only when asked.
@Suite("A filed item is taken out or moved on purpose, and never comes back unasked")
struct RemoveAndMoveSafetyTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> DossierBinary.Result {
        try DossierBinary.run(arguments, in: folder.url, environment: environment)
    }

    /// The sample Live Photo (`Samples/children/mina/IMG_0712.{HEIC,MOV}`) imported for
    /// children/mina, with children/jun beside it: the still, its rendition and its movie, filed.
    func importedLivePhoto() throws -> (heic: String, rendition: String, movie: String) {
        for name in ["IMG_0712.HEIC", "IMG_0712.MOV"] {
            let bytes = Array(try Data(contentsOf: DossierBinary.packageRoot.appendingPathComponent("Samples/children/mina/\(name)")))
            try folder.write(bytes, to: "dump/children/mina/\(name)")
        }
        let imported = try run(["import", "--create", "dump", "--library", "Library", "--json"])
        #expect(imported.status == 0, "\(imported.standardOutput)\(imported.standardError)")
        #expect(try run(["subjects", "add", "children/jun", "--name", "Jun", "--library", "Library"]).status == 0)
        let files = folder.files(under: "Library/children/mina/photos").sorted()
        let heic = try #require(files.first { $0.hasSuffix(".heic") }), movie = try #require(files.first { $0.hasSuffix(".mov") })
        let rendition = try #require(files.first { $0.hasSuffix(".jpg") })
        #expect(files.count == 3, "\(files)")
        return ("children/mina/photos/\(heic)", "children/mina/photos/\(rendition)", "children/mina/photos/\(movie)")
    }

    /// Every regular file's bytes under the library's subject folders, by path below the library.
    func subjectFiles() -> [String: [UInt8]] {
        var found: [String: [UInt8]] = [:]
        for kind in ["pets", "children"] {
            for path in folder.files(under: "Library/\(kind)") where !path.hasSuffix("profile.json") {
                found["\(kind)/\(path)"] = SafetyFixtures.contents(folder.path("Library/\(kind)/\(path)"))
            }
        }
        return found
    }

    func index() throws -> LibraryIndex {
        try #require(try LibraryIndex.openReadOnly(LibraryLayout(root: URL(fileURLWithPath: folder.path("Library")))))
    }

    // MARK: remove

    @Test("remove keeps a photo's bytes under removed/<day>/, the index records it, verify finds all well, and a re-import says it was removed and files nothing")
    func removeKeepsTheBytesAndNothingBringsItBack() throws {
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        let photo = filed[0].filed
        let bytes = try #require(SafetyFixtures.contents(folder.path("Library/\(photo)")))

        let removed = try run(["remove", photo, "--library", "Library"])
        #expect(removed.status == 0, "\(removed.standardOutput)\(removed.standardError)")
        let kept = "removed/\(VerifySafetyTests.today())/\(photo)"
        #expect(removed.standardOutput.hasPrefix("removed \(photo) -> \(kept)\n"), "\(removed.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/\(photo)")))
        #expect(SafetyFixtures.contents(folder.path("Library/\(kept)")) == bytes)
        let recorded = try #require(try index().removal(of: try Subject(parsing: "pets/leo"), sourceDigest: nil,
                                                        digest: ContentDigest(of: bytes)))
        #expect(recorded.command == .remove && recorded.path == photo && recorded.bytesAt == kept && recorded.state == .done)
        #expect(recorded.sourceSha256 == ContentDigest(of: try #require(SafetyFixtures.contents(filed[0].source))).hex)

        let verified = try run(["verify", "--library", "Library"])
        #expect(verified.status == 0, "\(verified.standardOutput)")
        #expect(verified.standardOutput.hasSuffix(": all is well.\n"))

        // The same dump again, with --move: the removed photo's source is skipped, saying why, and stays.
        let again = try run(["import", "dump", "--library", "Library", "--move", "--json"])
        #expect(again.status == 0, "\(again.standardOutput)\(again.standardError)")
        let outcome = try #require(again.outcomes.first { $0["source"] as? String == filed[0].source })
        #expect(outcome["status"] as? String == "skipped")
        #expect(outcome["errorCode"] as? String == "taken-out")
        #expect(outcome["error"] as? String == "\(filed[0].source): its photo was taken out of pets/leo by `dossier remove` on "
            + "\(VerifySafetyTests.today()) (its bytes are kept at \(folder.path("Library/\(kept)"))); not filed there again")
        #expect(FileManager.default.fileExists(atPath: filed[0].source))
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/\(photo)")))
        #expect(folder.files(under: "Library/pets/leo/photos").count == 2)
        // In text, the line says so without --verbose.
        try folder.write(try #require(SafetyFixtures.contents(filed[0].source)), to: "copy/pets/leo/again.jpg")
        let text = try run(["import", "copy", "--library", "Library"])
        #expect(text.standardOutput.contains("skipped \(folder.path("copy/pets/leo/again.jpg")): its photo was taken out of pets/leo "
            + "by `dossier remove`"), "\(text.standardOutput)")
        #expect(try run(["verify", "--library", "Library"]).status == 0)
    }

    @Test("An index lost after a remove is rebuilt knowing it from removed/: the next import still files nothing of it")
    func aRemovalOutlivesALostIndex() throws {
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        #expect(try run(["remove", filed[0].filed, "--library", "Library"]).status == 0)
        try FileManager.default.removeItem(atPath: folder.path("Library/.dossier/index.sqlite"))
        let again = try run(["import", "dump", "--library", "Library", "--json"])
        #expect(again.status == 0, "\(again.standardOutput)\(again.standardError)")
        #expect(again.standardError.contains("its index was missing; rebuilt it"), "\(again.standardError)")
        let outcome = try #require(again.outcomes.first { $0["source"] as? String == filed[0].source })
        #expect(outcome["status"] as? String == "skipped", "\(outcome)")
        #expect(outcome["errorCode"] as? String == "taken-out")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/\(filed[0].filed)")))
        #expect(try run(["verify", "--library", "Library"]).status == 0)
    }

    @Test("remove of a Live Photo's movie takes the still, its rendition and the movie out together, and neither source is filed again")
    func removeTakesTheWholeLivePhoto() throws {
        let live = try importedLivePhoto()
        let before = subjectFiles()
        let removed = try run(["remove", folder.path("Library/\(live.movie)"), "--library", "Library", "--json"])
        #expect(removed.status == 0, "\(removed.standardOutput)\(removed.standardError)")
        let files = try #require(removed.jsonLines.first?["files"] as? [[String: Any]])
        let day = VerifySafetyTests.today()
        #expect(files.map { $0["from"] as? String } == [live.heic, live.movie, live.rendition])
        #expect(files.map { $0["role"] as? String } == ["filed", "filed", "rendition"])
        for path in [live.heic, live.movie, live.rendition] {
            #expect(SafetyFixtures.contents(folder.path("Library/removed/\(day)/\(path)")) == before[path], "\(path)")
        }
        #expect(folder.files(under: "Library/children/mina/photos").isEmpty)
        #expect(try run(["verify", "--library", "Library"]).status == 0)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)],
                                              ofItemAtPath: folder.path("dump/children/mina/IMG_0712.MOV"))
        let again = try run(["import", "dump", "--library", "Library", "--json"])
        #expect(again.outcomes.map { $0["status"] as? String } == ["skipped", "skipped"], "\(again.standardOutput)")
        #expect(folder.files(under: "Library/children/mina/photos").isEmpty)
    }

    @Test("remove of a path outside the library, of a file not filed and of a year file exits 1 naming each; the photo named beside them is removed")
    func removeRefusesWhatIsNoFiledItem() throws {
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        let outside = folder.path("dump/pets/leo/IMG_0001.JPG")
        let result = try run(["remove", outside, "pets/leo/photos/2024/none.jpg", "pets/leo/records/2024.jsonl", filed[1].filed,
                              "--library", "Library"])
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").map(String.init) == [
            "dossier: \(outside): not in the library \(folder.path("Library")): give a path below it, or one relative to it as "
                + "`dossier verify` names them",
            "dossier: pets/leo/photos/2024/none.jpg: the index knows no photo, video or sound filed there (see `dossier verify`)",
            "dossier: pets/leo/records/2024.jsonl: a year file of records: records are not taken out this way (each line comes "
                + "from its source: edit the source and import it again); photos, videos and sounds are",
        ])
        #expect(FileManager.default.fileExists(atPath: outside))
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/\(filed[1].filed)")))
        #expect(folder.files(under: "Library/removed").count == 1)
        #expect(try run(["verify", "--library", "Library"]).status == 0)

        // No library there: refused, and none is made.
        let nowhere = try run(["remove", "pets/leo/photos/x.jpg", "--library", "NoLibrary"])
        #expect(nowhere.status == 2, "\(nowhere.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("NoLibrary")))
        let move = try run(["move", "pets/leo/photos/x.jpg", "--subject", "pets/leo", "--library", "NoLibrary"])
        #expect(move.status != 0)
        #expect(!FileManager.default.fileExists(atPath: folder.path("NoLibrary")))
    }

    @Test("remove follows no link: a year folder or removed/ made a link out of the library is refused, and nothing outside is touched")
    func removeFollowsNoLink() throws {
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        let photo = filed[0].filed
        let yearFolder = (photo as NSString).deletingLastPathComponent
        // The year folder moved out, a link in its place: the same names, outside the library.
        try FileManager.default.moveItem(atPath: folder.path("Library/\(yearFolder)"), toPath: folder.path("outside"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("Library/\(yearFolder)"), withDestinationPath: folder.path("outside"))
        let before = folder.files(under: "outside")
        let through = try run(["remove", photo, "--library", "Library"])
        #expect(through.status == 2, "\(through.standardOutput)\(through.standardError)")
        #expect(through.standardError.contains("link"), "\(through.standardError)")
        #expect(folder.files(under: "outside") == before)
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/removed")))
        try FileManager.default.removeItem(atPath: folder.path("Library/\(yearFolder)"))
        try FileManager.default.moveItem(atPath: folder.path("outside"), toPath: folder.path("Library/\(yearFolder)"))

        // removed/ a link to a folder outside: nothing is linked into it, and the photo stays.
        try FileManager.default.createDirectory(atPath: folder.path("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("Library/removed"), withDestinationPath: folder.path("elsewhere"))
        let intoLink = try run(["remove", photo, "--library", "Library"])
        #expect(intoLink.status == 2, "\(intoLink.standardOutput)\(intoLink.standardError)")
        #expect(folder.files(under: "elsewhere").isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.path("Library/\(photo)")))
        try FileManager.default.removeItem(atPath: folder.path("Library/removed"))
        // Stopped before the index changed: the next command undoes it, and all is well.
        try folder.write("", to: "empty/.keep")
        #expect(try run(["import", "empty", "--library", "Library"]).status == 0)
        #expect(try run(["verify", "--library", "Library"]).status == 0)
    }

    // MARK: A file deleted by hand

    @Test("A photo deleted by hand is missing to verify, naming --repair and remove; no import files it again until verify --repair")
    func aPhotoDeletedByHandComesBackOnlyWhenAsked() throws {
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        let deleted = filed[1].filed
        let good = try #require(SafetyFixtures.contents(folder.path("Library/\(deleted)")))
        try FileManager.default.removeItem(atPath: folder.path("Library/\(deleted)"))

        let verified = try run(["verify", "--library", "Library"])
        #expect(verified.status == 1)
        #expect(verified.standardOutput.split(separator: "\n").first.map(String.init)
            == "missing    \(deleted): the index says it is here; nothing is; its source is still at \(filed[1].source): "
            + "`dossier verify --repair` files it again from there, or `dossier remove \(deleted)` forgets it")
        #expect(verified.standardError.isEmpty, "nothing is noted for the next import: \(verified.standardError)")

        // An import of something else files nothing again; one of its very source says why, and leaves it be.
        try folder.write(SafetyFixtures.jpeg(seed: 9), to: "later/pets/leo/IMG_0009.JPG")
        let other = try run(["import", "later", "--library", "Library"])
        #expect(other.status == 0, "\(other.standardOutput)\(other.standardError)")
        #expect(!other.standardError.contains("filing again"), "\(other.standardError)")
        let same = try run(["import", "dump", "--library", "Library", "--move", "--json"])
        #expect(same.status == 3, "\(same.standardOutput)\(same.standardError)")
        let outcome = try #require(same.outcomes.first { $0["source"] as? String == filed[1].source })
        #expect(outcome["status"] as? String == "skipped")
        #expect(outcome["errorCode"] as? String == "filed-copy-missing")
        #expect(outcome["error"] as? String == "\(filed[1].source): its filed copy \(folder.path("Library/\(deleted)")) is missing "
            + "(deleted by hand?), and is not filed again unasked: `dossier verify --repair` files it again from here, "
            + "`dossier remove \(deleted)` forgets it")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/\(deleted)")))
        #expect(FileManager.default.fileExists(atPath: filed[1].source), "--move never takes a source whose copy is missing")

        let repaired = try run(["verify", "--repair", "--library", "Library"])
        #expect(repaired.status == 0, "\(repaired.standardOutput)\(repaired.standardError)")
        #expect(SafetyFixtures.contents(folder.path("Library/\(deleted)")) == good)
    }

    @Test("verify --repair of a photo deleted by hand whose source is gone notes it; the next import of its source files it again")
    func repairWithNoGoodCopyWaitsForTheSource() throws {
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        let deleted = filed[0].filed
        let good = try #require(SafetyFixtures.contents(folder.path("Library/\(deleted)")))
        try FileManager.default.removeItem(atPath: folder.path("Library/\(deleted)"))
        let source = try #require(SafetyFixtures.contents(filed[0].source))
        try FileManager.default.removeItem(atPath: filed[0].source)

        let verified = try run(["verify", "--library", "Library"])
        #expect(verified.standardOutput.hasPrefix("missing    \(deleted): the index says it is here; nothing is; no good copy of it "
            + "is at hand: `dossier remove \(deleted)` forgets it, or `dossier verify --repair` has the next import of its source "
            + "file it again\n"), "\(verified.standardOutput)")
        let repaired = try run(["verify", "--repair", "--library", "Library"])
        #expect(repaired.status == 1)
        #expect(repaired.standardError.contains("dossier: 1 missing photo has no good copy at hand: the next import of its source "
            + "files it again, as --repair asked"), "\(repaired.standardError)")
        // A plain verify after keeps what --repair asked.
        #expect(try run(["verify", "--library", "Library"]).status == 1)
        try folder.write(source, to: "found/pets/leo/IMG_0001.JPG")
        let found = try run(["import", "found", "--library", "Library", "--json"])
        #expect(found.status == 0, "\(found.standardOutput)\(found.standardError)")
        #expect(found.outcomes.first?["refiled"] as? Bool == true, "\(found.standardOutput)")
        #expect(SafetyFixtures.contents(folder.path("Library/\(deleted)")) == good)
        #expect(try run(["verify", "--library", "Library"]).status == 0)
    }

    @Test("remove forgets a photo deleted by hand: verify then finds all well, and its source is not filed again")
    func removeForgetsAFileDeletedByHand() throws {
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        try FileManager.default.removeItem(atPath: folder.path("Library/\(filed[2].filed)"))
        let removed = try run(["remove", filed[2].filed, "--library", "Library"])
        #expect(removed.status == 0, "\(removed.standardError)")
        #expect(removed.standardOutput.hasPrefix("forgot \(filed[2].filed): nothing was there\n"), "\(removed.standardOutput)")
        #expect(try run(["verify", "--library", "Library"]).status == 0)
        let again = try run(["import", "dump", "--library", "Library", "--json"])
        #expect(again.status == 0)
        #expect(again.outcomes.first { $0["source"] as? String == filed[2].source }?["errorCode"] as? String == "taken-out")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/\(filed[2].filed)")))
    }

    // MARK: move

    @Test("move files a Live Photo's still, rendition and movie under another subject by the same names; a re-import finds them there")
    func moveTakesTheWholeLivePhotoAcross() throws {
        let live = try importedLivePhoto()
        let before = subjectFiles()
        let moved = try run(["move", live.rendition, "--subject", "children/jun", "--library", "Library"])
        #expect(moved.status == 0, "\(moved.standardOutput)\(moved.standardError)")
        let across = { (path: String) in "children/jun/" + path.dropFirst("children/mina/".count) }
        #expect(moved.standardOutput == """
            moved \(live.heic) -> \(across(live.heic))
            moved \(live.movie) -> \(across(live.movie))
            moved \(live.rendition) (a rendition) -> \(across(live.rendition))
            Moved 1 item (3 files) in \(folder.path("Library")) to children/jun. No import files it under the subject it left again.

            """)
        let after = subjectFiles()
        #expect(after.count == before.count)
        for path in [live.heic, live.movie, live.rendition] {
            #expect(after[across(path)] == before[path], "\(path)")
            #expect(after[path] == nil, "\(path)")
        }
        let verified = try run(["verify", "--library", "Library"])
        #expect(verified.status == 0, "\(verified.standardOutput)")
        let index = try index()
        #expect(try index.filedFile(at: across(live.heic))?.subject == "children/jun")
        #expect(try index.renditions(ofPhoto: across(live.heic)).map(\.path) == [across(live.rendition)])

        // Read again (changed time): the movie and still are duplicates of where they went, and say so.
        for name in ["IMG_0712.HEIC", "IMG_0712.MOV"] {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)],
                                                  ofItemAtPath: folder.path("dump/children/mina/\(name)"))
        }
        let again = try run(["import", "dump", "--library", "Library", "--json"])
        #expect(again.status == 0, "\(again.standardOutput)\(again.standardError)")
        #expect(Set(again.outcomes.compactMap { $0["destination"] as? String })
            == [folder.path("Library/\(across(live.heic))"), folder.path("Library/\(across(live.movie))")])
        #expect(again.outcomes.allSatisfy { $0["status"] as? String == "duplicate" })
        #expect(again.outcomes.allSatisfy { outcome in
            (outcome["warnings"] as? [String])?.contains { $0.contains("moved from children/mina to children/jun by `dossier move`") } == true
        }, "\(again.standardOutput)")
        #expect(folder.files(under: "Library/children/mina/photos").isEmpty)
        #expect(try run(["verify", "--library", "Library"]).status == 0)
    }

    @Test("A movie left under a still's name with no still beside it, as earlier versions filed one, is named by verify with the move that gives it a name of its own")
    func aMovieBesideNothingIsMovedToANameOfItsOwn() throws {
        let live = try importedLivePhoto()
        let movieBytes = try #require(SafetyFixtures.contents(folder.path("Library/\(live.movie)")))
        // What an earlier Dossier left: the movie alone in photos/ under the still's name.
        try FileManager.default.removeItem(atPath: folder.path("Library/\(live.heic)"))
        try FileManager.default.removeItem(atPath: folder.path("Library/\(live.rendition)"))
        #expect(try run(["index", "rebuild", "--library", "Library"]).status == 1)
        let verified = try run(["verify", "--library", "Library"])
        #expect(verified.status == 1)
        let digest = ContentDigest(of: movieBytes).hex
        let named = (live.movie as NSString).lastPathComponent.split(separator: "_")[2].prefix(8)
        #expect(verified.standardOutput.hasPrefix("damaged    \(live.movie): its bytes hash to \(digest.prefix(16)); its name says "
            + "\(named), a still's, and no still is beside it (a Live Photo's movie filed under a still of another subject): "
            + "`dossier move \(live.movie) --subject children/mina` files it under a name of its own\n"), "\(verified.standardOutput)")

        let moved = try run(["move", live.movie, "--subject", "children/mina", "--library", "Library", "--json"])
        #expect(moved.status == 0, "\(moved.standardOutput)\(moved.standardError)")
        let to = try #require((moved.jsonLines.first?["files"] as? [[String: Any]])?.first?["to"] as? String)
        #expect(to == "children/mina/videos/2024/2024-06-14_174208_\(digest.prefix(8)).mov")
        #expect(SafetyFixtures.contents(folder.path("Library/\(to)")) == movieBytes)
        #expect(folder.files(under: "Library/children/mina/photos").isEmpty)
        let after = try run(["verify", "--library", "Library"])
        #expect(after.status == 0, "\(after.standardOutput)")
    }

    @Test("move refuses a damaged or missing item, naming the fix, and moves nothing")
    func moveRefusesADamagedItem() throws {
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        #expect(try run(["subjects", "add", "pets/milo", "--name", "Milo", "--library", "Library"]).status == 0)
        try VerifySafetyTests.flipBytes(in: folder.path("Library/\(filed[0].filed)"))
        try FileManager.default.removeItem(atPath: folder.path("Library/\(filed[1].filed)"))
        let result = try run(["move", filed[0].filed, filed[1].filed, "--subject", "pets/milo", "--library", "Library"])
        #expect(result.status == 1)
        #expect(result.standardError == """
            dossier: \(filed[0].filed) is damaged (its bytes are not the ones filed): `dossier verify --repair` files it again first
            dossier: \(filed[1].filed) is missing: `dossier verify --repair` files it again first, or `dossier remove \(filed[1].filed)` forgets it

            """)
        #expect(folder.files(under: "Library/pets/milo").filter { $0 != "profile.json" }.isEmpty)
    }

    @Test("A move killed at each of its steps loses nothing: the next command undoes or finishes it, and verify then finds all well",
          arguments: ["planned", "linked-one", "linked", "recorded", "unlinked-one"])
    func aKilledMoveLosesNothing(point: String) throws {
        let live = try importedLivePhoto()
        let before = subjectFiles()
        let killed = try run(["move", live.heic, "--subject", "children/jun", "--library", "Library"],
                             environment: ["DOSSIER_TEST_HALT": point])
        #expect(killed.status == SIGKILL, "\(killed.standardOutput)\(killed.standardError)")
        // Every byte is under a name still, whatever the kill left.
        let contents = Set(subjectFiles().values)
        #expect(Set(before.values).isSubset(of: contents))

        try folder.write("", to: "empty/.keep")
        let next = try run(["import", "empty", "--library", "Library"])
        #expect(next.status == 0, "\(next.standardOutput)\(next.standardError)")
        #expect(next.standardError.contains("a `dossier remove` or `dossier move` was stopped part way"), "\(next.standardError)")
        let after = subjectFiles()
        let finished = ["recorded", "unlinked-one"].contains(point)
        let across = { (path: String) in "children/jun/" + path.dropFirst("children/mina/".count) }
        #expect(after.count == before.count, "\(after.keys.sorted())")
        for path in [live.heic, live.movie, live.rendition] {
            #expect(after[finished ? across(path) : path] == before[path], "\(point): \(path)")
        }
        let verified = try run(["verify", "--library", "Library"])
        #expect(verified.status == 0, "\(point): \(verified.standardOutput)")
        if !finished {
            // Undone whole: the move can be made again.
            let again = try run(["move", live.heic, "--subject", "children/jun", "--library", "Library"])
            #expect(again.status == 0, "\(again.standardError)")
            #expect(Set(subjectFiles().keys) == Set([live.heic, live.movie, live.rendition].map(across)))
            #expect(try run(["verify", "--library", "Library"]).status == 0)
        }
    }

    @Test("A remove killed after the index changed is finished by the next command; its bytes are under removed/")
    func aKilledRemoveIsFinished() throws {
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        let bytes = SafetyFixtures.contents(folder.path("Library/\(filed[0].filed)"))
        let killed = try run(["remove", filed[0].filed, "--library", "Library"], environment: ["DOSSIER_TEST_HALT": "recorded"])
        #expect(killed.status == SIGKILL)
        let kept = folder.path("Library/removed/\(VerifySafetyTests.today())/\(filed[0].filed)")
        #expect(SafetyFixtures.contents(kept) == bytes)
        try folder.write("", to: "empty/.keep")
        #expect(try run(["import", "empty", "--library", "Library"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/\(filed[0].filed)")))
        #expect(SafetyFixtures.contents(kept) == bytes)
        #expect(try run(["verify", "--library", "Library"]).status == 0)
    }
}
