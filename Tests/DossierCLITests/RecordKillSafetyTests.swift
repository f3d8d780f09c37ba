import DossierCore
import Foundation
import DossierTestSupport
import Testing

@Suite("A record import killed at any moment")
struct RecordKillSafetyTests {
    static let lines = 30_000

    /// Every year file holds whole record lines, in date order, each record once.
    static func expectWholeYearFiles(in folder: TemporaryFolder, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        var total = 0
        for name in folder.files(under: "Library/pets/leo/records") {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder.path("Library/pets/leo/records/\(name)")))
            let records = try data.split(separator: 0x0A).map { try JSONDecoder().decode(Record.self, from: Data($0)) }
            #expect(records.map(\.date) == records.map(\.date).sorted(), "\(name)", sourceLocation: sourceLocation)
            #expect(Set(records.map(\.id)).count == records.count, "\(name)", sourceLocation: sourceLocation)
            #expect(data.last == 0x0A, "\(name)", sourceLocation: sourceLocation)
            total += records.count
        }
        return total
    }

    @Test("leaves whole, sorted year files, and a re-run files every record once")
    func killedRecordImports() async throws {
        let folder = try TemporaryFolder()
        var log = ""
        for index in 0..<RecordKillSafetyTests.lines {
            let day = index / 20
            log += "\(2015 + day / 336).\(day / 28 % 12 + 1).\(day % 28 + 1) 귀뚜라미 \(index % 9 + 1)마리 #\(index)\n"
        }
        try folder.write(Array(log.utf8), to: "logs/pets/leo/care.txt")
        let seed = TestSeed()
        var generator = seed.generator
        for _ in 0..<4 {
            let process = DossierBinary.process(["import", "--create", "logs", "--library", "Library"], in: folder.url)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try await Task.sleep(for: .milliseconds(Int.random(in: 50...1500, using: &generator)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            _ = try RecordKillSafetyTests.expectWholeYearFiles(in: folder)
        }
        let result = try DossierBinary.run(["import", "--create", "logs", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0)
        #expect(try RecordKillSafetyTests.expectWholeYearFiles(in: folder) == RecordKillSafetyTests.lines)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("Library/.dossier/staging")).isEmpty)
    }
}
