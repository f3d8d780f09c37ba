import Crypto
import DossierCore
import Foundation

/// What the last report was made from, kept in the site's folder (`.report-state.json`): per
/// subject, a digest of its page's inputs (the sizes and times of its profile, year files and
/// media, its problems, the day) and its card. A subject whose digest is the same is neither read
/// nor written again: a second report of an unchanged library reads no records at all.
struct ReportState: Codable, Equatable {
    struct Entry: Codable, Equatable {
        let digest: String
        let summary: SubjectSummary
        /// The SHA-256 of the page as written: a page edited or damaged since (a sync tool's
        /// conflict, a hand edit) is made again though its inputs did not change. Nil in a state
        /// written before it was kept: the page is made again once.
        var page: String? = nil
        /// The year pages of a subject with more records than its page lists: each one's path
        /// below the site and the SHA-256 of its bytes as written, checked like the page's. Nil
        /// when it has none.
        var yearPages: [String: String]? = nil
    }

    static let path = ".report-state.json"

    /// Far more than a state ever needs (a few hundred bytes a subject): a larger file is not one
    /// this report wrote, and is not read into memory.
    static let largest: Int64 = 64 << 20

    /// The state the last report left, nil when there is none or it cannot be read.
    static func read(by writer: SiteWriter) -> ReportState? {
        guard let size = writer.size(of: path), size <= largest, let bytes = writer.read(path) else { return nil }
        return try? JSONDecoder().decode(ReportState.self, from: Data(bytes))
    }

    var version: Int
    var subjects: [String: Entry]
    /// Every file of the site the report wrote (or claimed, about to write), relative to its
    /// folder, sorted: the only files it ever replaces or removes. Nil in a state written before
    /// it was kept (`ownedFiles` then says what those reports wrote).
    var files: [String]? = nil

    /// The files of the site the report wrote: those the state lists; for a state from before it
    /// listed them, the pages every report wrote (the index, the problems and quarantine pages,
    /// the stylesheet and script) and the subjects' pages and year pages it names.
    var ownedFiles: Set<String> {
        if let files { return Set(files) }
        var owned = Set(ReportSite.fixedFiles)
        for (path, entry) in subjects {
            guard let subject = try? Subject(parsing: path) else { continue }
            owned.insert(SubjectPage.path(of: subject))
            owned.formUnion((entry.yearPages ?? [:]).keys.filter { RecordsYearPage.isPath($0, of: subject) })
        }
        return owned
    }

    /// The state as the site keeps it: sorted keys, pretty, a line feed at the end.
    var encoded: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8)) + [0x0A]
    }

    static func digest(_ lines: [String]) -> String {
        var hasher = SHA256()
        for line in lines {
            hasher.update(data: Array(line.utf8))
            hasher.update(data: [0x0A])
        }
        return hasher.finalize().map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// The SHA-256 of a page's bytes, in hex.
    static func digest(ofPage bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}
