import DossierCore
import Testing

@Suite("A problem found again is the one the ledger holds: same line as written, wherever it now stands")
struct ProblemContinuityTests {
    static func problem(_ id: Int64?, line: Int?, _ text: String?, _ reason: String, foundAt: String = "new") -> LedgerProblem {
        LedgerProblem(id: id, sourcePath: "/notes.txt", keptPath: "sources/notes_1.txt", line: line, text: text, reason: reason,
                      foundAt: foundAt)
    }

    @Test("A line moved down keeps its id and when it was first found; a line never seen before gets none")
    func movedLinesKeepTheirIds() {
        let earlier = [Self.problem(1, line: 1, "memo", "no date", foundAt: "first"),
                       Self.problem(2, line: 3, "2024-03-03 Reu", "no subject", foundAt: "first")]
        let found = [Self.problem(nil, line: 1, "memo", "no date"),
                     Self.problem(nil, line: 2, "2024-03-01 Coco", "no subject"),
                     Self.problem(nil, line: 4, "2024-03-03 Reu", "no subject")]
        let carried = ProblemContinuity.carry(from: earlier, to: found)
        #expect(carried.map(\.id) == [1, nil, 2])
        #expect(carried.map(\.foundAt) == ["first", "new", "first"])
        #expect(carried.map(\.line) == [1, 2, 4])
    }

    @Test("Two lines alike are paired in the order they stand; the one left over is new")
    func linesAlikeArePairedInOrder() {
        let earlier = [Self.problem(7, line: 5, "----", "no date"), Self.problem(4, line: 1, "----", "no date")]
        let found = [Self.problem(nil, line: 9, "----", "no date"), Self.problem(nil, line: 2, "----", "no date"),
                     Self.problem(nil, line: 6, "----", "no date")]
        #expect(ProblemContinuity.carry(from: earlier, to: found).map(\.id) == [nil, 4, 7])
    }

    @Test("A line that fails for another reason now is still that problem; one about the whole source is the same by its reason")
    func reasonsAndWholeSources() {
        let earlier = [Self.problem(3, line: 2, "2024-03-03 Reu", "unknown name 'Reu' (did you mean Leo?)"),
                       Self.problem(5, line: nil, nil, "no records in it")]
        let found = [Self.problem(nil, line: nil, nil, "no records in it"),
                     Self.problem(nil, line: 2, "2024-03-03 Reu", "unknown name 'Reu' (did you mean Leo or Rue?)"),
                     Self.problem(nil, line: nil, nil, "something else")]
        #expect(ProblemContinuity.carry(from: earlier, to: found).map(\.id) == [5, 3, nil])
    }

    @Test("A problem about the whole source keeps its id when only the count in its reason changes")
    func countsInWholeSourceReasons() {
        let earlier = [Self.problem(8, line: nil, nil, "column 'weight' has no unit: 12 values read as g, the only unit seen"),
                       Self.problem(9, line: nil, nil, "column 'length' has no unit: 3 values kept as text")]
        let found = [Self.problem(nil, line: nil, nil, "column 'length' has no unit: 4 values kept as text"),
                     Self.problem(nil, line: nil, nil, "column 'weight' has no unit: 13 values read as g, the only unit seen"),
                     Self.problem(nil, line: nil, nil, "column 'temp' has no unit: 1 value kept as text")]
        #expect(ProblemContinuity.carry(from: earlier, to: found).map(\.id) == [9, 8, nil])
    }
}
