/// Edit distance between two names, for "did you mean" suggestions.
public enum NameDistance {
    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbours each cost 1, since a swapped pair ("Loe") is the commonest typo after a wrong key.
    /// Gives up early (returning `limit + 1`) once every alignment costs more than `limit`.
    public static func between(_ a: [UInt32], _ b: [UInt32], limit: Int) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let width = b.count + 1
        var previous2 = [Int](repeating: 0, count: width)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            var rowBest = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
                rowBest = min(rowBest, value)
            }
            if rowBest > limit { return limit + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
