/// One sorted input of a merge: the current year file or a run.
final class MergeInput {
    let isExisting: Bool
    private let reader: ByteLineReader
    private(set) var line: ArraySlice<UInt8>?
    private(set) var key = RecordLine.Key.first

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

    /// The input whose line comes first; the existing file wins ties, so its copy is kept.
    static func smallest(of inputs: [MergeInput]) -> Int? {
        var best: Int?
        for (index, input) in inputs.enumerated() where input.line != nil {
            if let current = best, !(input.key < inputs[current].key) { continue }
            best = index
        }
        return best
    }
}
