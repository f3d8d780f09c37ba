import Crypto

/// What the last report was made from, kept in the site's folder (`.report-state.json`): per
/// subject, a digest of its page's inputs (the sizes and times of its profile, year files and
/// media, its problems, the day) and its card. A subject whose digest is the same is neither read
/// nor written again: a second report of an unchanged library reads no records at all.
struct ReportState: Codable, Equatable {
    struct Entry: Codable, Equatable {
        let digest: String
        let summary: SubjectSummary
    }

    static let path = ".report-state.json"

    var version: Int
    var subjects: [String: Entry]

    static func digest(_ lines: [String]) -> String {
        var hasher = SHA256()
        for line in lines {
            hasher.update(data: Array(line.utf8))
            hasher.update(data: [0x0A])
        }
        return hasher.finalize().map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}
