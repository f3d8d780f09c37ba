/// Whether a text source at a path that gave records before is the file that gave them, edited
/// (its records replace those its earlier versions gave and it no longer does), or a new file that
/// only took its name (a log deleted and a new note of the same name: its records are added, and
/// the earlier ones stay). A file Dossier saw leave is a new one whatever it holds
/// (`SourceDeparture`); one that came while nothing watched (the daemon stopped, between two
/// polls, between two imports) is an edit only when Dossier can tell it is one:
/// - it is the same file as the version last read: the same device and inode, and the same birth
///   time (an inode freed by a deletion is soon given to the next new file, so the inode alone
///   proves nothing): an edit made in place, however much it changed;
/// - or the last version's lines are carried on: at least half of them (blank ones aside) are
///   still in it, in the same order: an editor's save by rename, an app writing its export anew
///   with the old rows and new ones.
/// Either way nothing is lost: a new file's records are added beside the earlier ones, and every
/// version stays kept under `sources/`.
public struct SourceContinuity: Sendable {
    public let layout: LibraryLayout

    public init(layout: LibraryLayout) {
        self.layout = layout
    }

    /// Whether `source` (made at `birthTime`), staged as `newCopy` (a path in the library's
    /// staging), continues the versions `lineage` names (`LibraryCatalog.lineage`), the last of
    /// which its rows say which file it was read from.
    public func isEdit(_ source: SourceFile, birthTime: Int64?, newCopy: String, lineage: [SourceYearFile]) -> Bool {
        let current = lineage.filter { !$0.superseded }
        if let identity = source.identity, let birthTime,
           current.contains(where: { $0.file?.identity == identity && $0.file?.birthTime == birthTime }) {
            return true
        }
        let versions = Set((current.isEmpty ? lineage : current).map(\.keptPath))
        guard !versions.isEmpty, let new = try? lines(of: newCopy) else { return false }
        for kept in versions.sorted() {
            guard let path = try? layout.url(forRelativePath: kept).path, let old = try? lines(of: path) else { continue }
            if SourceContinuity.carriesOn(old, in: new) { return true }
        }
        return false
    }

    /// Whether at least half of `old`'s lines stand in `new` in the same order: the longest run of
    /// them in order (each line matched to its earliest unused place in `new`, then the longest
    /// increasing sequence of those places, in n log n).
    static func carriesOn(_ old: [Int], in new: [Int]) -> Bool {
        guard !old.isEmpty else { return false }
        var places: [Int: [Int]] = [:]
        for (place, line) in new.enumerated() { places[line, default: []].append(place) }
        var used: [Int: Int] = [:]
        var tails: [Int] = []
        for line in old {
            guard let found = places[line] else { continue }
            let next = used[line, default: 0]
            guard next < found.count else { continue }
            used[line] = next + 1
            let place = found[next]
            var (low, high) = (0, tails.count)
            while low < high {
                let middle = (low + high) / 2
                if tails[middle] < place { low = middle + 1 } else { high = middle }
            }
            if low == tails.count { tails.append(place) } else { tails[low] = place }
        }
        return tails.count * 2 >= old.count
    }

    /// The file's lines (a file of the library: a kept copy, a staged one), each hashed, trimmed
    /// of the spaces and line ends an editor may change, blank ones left out; read a chunk at a
    /// time, a line over 1 MiB counted as one unlike any other.
    private func lines(of path: String) throws(LibraryError) -> [Int] {
        let reader = try ByteLineReader(path: path, in: layout.files, maximumLineBytes: 1 << 20)
        var lines: [Int] = []
        while let line = reader.next() {
            var (low, high) = (line.startIndex, line.endIndex)
            while low < high, line[low] == 0x20 || line[low] == 0x09 { low += 1 }
            while high > low, line[high - 1] == 0x20 || line[high - 1] == 0x09 || line[high - 1] == 0x0D { high -= 1 }
            guard low < high || reader.skippedLastLine else { continue }
            var hasher = Hasher()
            line[low..<high].withUnsafeBytes { hasher.combine(bytes: $0) }
            if reader.skippedLastLine { hasher.combine(lines.count) }
            lines.append(hasher.finalize())
        }
        return lines
    }
}
