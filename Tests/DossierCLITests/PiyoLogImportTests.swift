import Foundation
import DossierTestSupport
import Testing

@Suite("A PiyoLog text export imported whole, end to end through the binary")
struct PiyoLogImportTests {
    @Test("The export's name line files each day's entries under the child; its totals are summaries, its headers no records")
    func importsAnExport() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "children/hanako", "--name", "はなこ", "--library", "Library"],
                                          in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        try folder.write("""
            【ぴよログ】2024年1月
            ----------
            2024/1/5(金)
            はなこ (0歳3か月4日)

            08:40   ミルク 120ml
            14:30   起きる (1時間30分)

            ミルク合計   1回 120ml
            ----------
            2024/1/6(土)
            はなこ (0歳3か月5日)

            07:10   ミルク 140ml
            10:15   うんち

            ミルク合計   1回 140ml
            ----------

            """, to: "piyolog.txt")
        let imported = try DossierBinary.run(["import", "--create", "piyolog.txt", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.outcomes.first?["reading"] as? String
                == "18 lines -> 6 records, 0 problems; short dates (5/3) month first, as the library's monthFirst says")

        let listed = try DossierBinary.run(["records", "children/hanako", "--library", "Library", "--json"], in: folder.url)
        #expect(listed.status == 0, "\(listed.standardError)")
        let records = listed.jsonLines.map { record in
            let measurements = (record["measurements"] as? [[String: Any]] ?? []).map { "\($0["name"]!)=\($0["value"]!)\($0["unit"]!)" }
            return "\(record["subject"]!) \(record["date"]!) \(record["kind"]!) [\(measurements.joined(separator: ","))]"
        }
        // A record without a time sorts before the day's timed ones.
        #expect(records == [
            "children/hanako 2024-01-05 summary [formula=1count,amount=120ml]",
            "children/hanako 2024-01-05T08:40 feeding [formula=120ml]",
            "children/hanako 2024-01-05T14:30 wake [duration=90min]",
            "children/hanako 2024-01-06 summary [formula=1count,amount=140ml]",
            "children/hanako 2024-01-06T07:10 feeding [formula=140ml]",
            "children/hanako 2024-01-06T10:15 diaper []",
        ])
    }
}
