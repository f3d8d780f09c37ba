import Foundation
import DossierTestSupport
import Testing

/// A property list `<date>` is an instant; a birthday is a day in the family's time zone. The
/// library records its zone when it is made, so it gives one answer on every machine.
@Suite("One library, one time zone, on every machine")
struct TimeZoneSafetyTests {
    /// Born at 03:00 UTC on 10 February 2024: noon on Lunar New Year in Seoul (a Dragon), the
    /// evening before in Los Angeles (still a Rabbit).
    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
          <key>children</key>
          <array><dict>
            <key>id</key><string>hana</string>
            <key>name</key><string>하나</string>
            <key>born</key><date>2024-02-10T03:00:00Z</date>
          </dict></array>
        </dict>
        </plist>
        """

    static func profile(_ folder: TemporaryFolder, library: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.path("\(library)/children/hana/profile.json")))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func zodiac(_ profile: [String: Any]) -> String? {
        ((profile["derived"] as? [String: Any])?["chineseZodiac"] as? [String: Any])?["en"] as? String
    }

    @Test("A library made in Seoul reads a birth instant as a Seoul day, also on a machine in Los Angeles")
    func theLibrarysZoneWins() throws {
        let folder = try TemporaryFolder()
        try folder.write(TimeZoneSafetyTests.plist, to: "kids.plist")
        let made = try DossierBinary.run(["subjects", "add", "pets/leo", "--name", "레오", "--library", "Library"], in: folder.url,
                                         environment: ["TZ": "Asia/Seoul"])
        #expect(made.status == 0)
        #expect(try String(contentsOfFile: folder.path("Library/config/library.json"), encoding: .utf8)
            == "{\n  \"timeZone\" : \"Asia/Seoul\"\n}\n")

        let imported = try DossierBinary.run(["import", "--create", "kids.plist", "--library", "Library"], in: folder.url,
                                             environment: ["TZ": "America/Los_Angeles"])
        #expect(imported.status == 0, "\(imported.standardError)")
        let profile = try TimeZoneSafetyTests.profile(folder, library: "Library")
        #expect(profile["born"] as? String == "2024-02-10T12:00")
        #expect(TimeZoneSafetyTests.zodiac(profile) == "Dragon")
        #expect((profile["derived"] as? [String: Any])?["hundredthDay"] as? String == "2024-05-19")
    }

    @Test("A library made in Los Angeles reads the same file as a Los Angeles day")
    func anotherLibraryAnotherZone() throws {
        let folder = try TemporaryFolder()
        try folder.write(TimeZoneSafetyTests.plist, to: "kids.plist")
        let imported = try DossierBinary.run(["import", "--create", "kids.plist", "--library", "Library"], in: folder.url,
                                             environment: ["TZ": "America/Los_Angeles"])
        #expect(imported.status == 0)
        let profile = try TimeZoneSafetyTests.profile(folder, library: "Library")
        #expect(profile["born"] as? String == "2024-02-09T19:00")
        #expect(TimeZoneSafetyTests.zodiac(profile) == "Rabbit")
        #expect((profile["derived"] as? [String: Any])?["hundredthDay"] as? String == "2024-05-18")
    }

    @Test("A time zone the library's config names wrongly stops the import with one line naming the file")
    func aBadZoneIsOneClearError() throws {
        let folder = try TemporaryFolder()
        try folder.write(TimeZoneSafetyTests.plist, to: "kids.plist")
        try folder.write("{\"timeZone\": \"Asia/Seol\"}\n", to: "Library/config/library.json")
        let imported = try DossierBinary.run(["import", "--create", "kids.plist", "--library", "Library"], in: folder.url)
        #expect(imported.status == 2)
        #expect(imported.standardError == "dossier: \(folder.path("Library/config/library.json")): "
            + "'Asia/Seol' is no time zone (write one like Asia/Seoul)\n")
    }
}
