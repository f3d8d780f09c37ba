/// One sorted input of a merge: the current year file or a run.
final class MergeInput {
    let isExisting: Bool
    private let reader: ByteLineReader
    // One thread at a time, on every record's way: no run-time exclusivity checks (docs/performance.md).
    @exclusivity(unchecked) private(set) var line: ArraySlice<UInt8>?
    @exclusivity(unchecked) private(set) var key = RecordLine.Key.first

    init(reader: ByteLineReader, isExisting: Bool) throws {
        self.isExisting = isExisting
        self.reader = reader
        advance()
    }

    func advance() {
        repeat { line = reader.next() } while line?.isEmpty == true
        if let line {
            // A line that lost its shape (edited by hand) keeps its place at the front.
            key = RecordLine.key(of: line) ?? RecordLine.Key.first
        }
    }

    /// The input whose line comes first; the existing file (the first input) wins ties, so its
    /// copy is kept, unless `existingFirst` is false: then a new copy wins, and replaces it.
    static func smallest(of inputs: [MergeInput], existingFirst: Bool = true) -> Int? {
        var best: Int?
        for (index, input) in inputs.enumerated() where input.line != nil {
            if let current = best {
                let wins = input.key < inputs[current].key
                    || (!existingFirst && inputs[current].isExisting && !(inputs[current].key < input.key))
                if !wins { continue }
            }
            best = index
        }
        return best
    }
}
