/// Which problem found by reading a source again is one the ledger already holds, so that it
/// keeps its id (and when it was first found) until it is solved or dismissed: an id a person read
/// in `dossier problems` must still name the same line after a retry or a re-import.
///
/// A problem is the same when it is about the same line as written: the same text, whatever its
/// line number (a line inserted above it in an edited log moves it down, and it is still the same
/// line). Its reason may change (a retry after `subjects add` suggests other names) and it is still
/// that line not filed. A problem with no text of its line (one about the whole source) is the same
/// when its reason is. Several problems alike (two copies of a title line) are paired in the order
/// they stand in the source. What finds no partner is new and gets a new id; an old problem that
/// finds none was solved, and goes.
public enum ProblemContinuity {
    /// The new problems, those found before carrying their earlier id and first finding time.
    public static func carry(from earlier: [LedgerProblem], to found: [LedgerProblem]) -> [LedgerProblem] {
        var result = found
        var unmatched = Array(found.indices)
        var available = earlier.sorted { ($0.line ?? 0, $0.id ?? 0) < ($1.line ?? 0, $1.id ?? 0) }
        // The closest pairing first (the very line and reason), then the same line for a new reason,
        // then a problem about the whole source by what it is about, its reason's words before the
        // first colon ("column 'weight' has no unit: 12 values read as g" counts what changes).
        let passes: [(LedgerProblem) -> String?] = [
            { problem in problem.text.map { "text\u{0}\($0)\u{0}\(problem.reason)" } ?? "reason\u{0}\(problem.reason)" },
            { problem in problem.text.map { "text\u{0}\($0)" } },
            { problem in
                guard problem.text == nil, let colon = problem.reason.range(of: ": ") else { return nil }
                return "about\u{0}\(problem.reason[..<colon.lowerBound])"
            },
        ]
        for key in passes {
            var waiting: [String: [Int]] = [:]
            for (position, problem) in available.enumerated() {
                if let key = key(problem) { waiting[key, default: []].append(position) }
            }
            var taken = Set<Int>()
            unmatched = unmatched
                .sorted { (found[$0].line ?? 0, $0) < (found[$1].line ?? 0, $1) }
                .filter { index in
                    guard let key = key(found[index]), var candidates = waiting[key], !candidates.isEmpty else { return true }
                    let position = candidates.removeFirst()
                    waiting[key] = candidates
                    taken.insert(position)
                    result[index].id = available[position].id
                    result[index].foundAt = available[position].foundAt
                    return false
                }
            available = available.enumerated().filter { !taken.contains($0.offset) }.map(\.element)
        }
        return result
    }
}
