import Testing
@testable import DossierCore

/// When a file at a log's path carries the log's lines on: at least half of them, in order.
@Suite("A log's lines carried on")
struct SourceContinuityTests {
    @Test("At least half of the old lines, in their order, carry a version on; lines moved out of order do not count", arguments: [
        ([1, 2, 3, 4], [1, 2, 3, 4, 5], true),     // lines added
        ([1, 2, 3, 4], [1, 9, 3, 4], true),        // one corrected
        ([1, 2, 3, 4], [1, 2, 7, 8], true),        // half kept
        ([1, 2, 3, 4], [1, 7, 8, 9], false),       // a quarter kept
        ([1, 2, 3, 4], [4, 3, 2, 1], false),       // the same lines, backwards: one in order
        ([1, 1, 1, 1, 2], [1, 2], false),          // a repeated line is matched once
        ([1, 2], [5, 6], false),                   // nothing in common
        ([], [1, 2], false),                       // an empty version carries nothing on
    ])
    func carriesOn(old: [Int], new: [Int], carried: Bool) {
        #expect(SourceContinuity.carriesOn(old, in: new) == carried)
    }
}
