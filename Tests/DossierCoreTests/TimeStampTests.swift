import Foundation
import Testing
@testable import DossierCore

/// The index's times are compared and sorted as text: a stamp written today must read as those
/// an `ISO8601DateFormatter` wrote before.
@Suite("The times the index records")
struct TimeStampTests {
    @Test("A time is stamped exactly as ISO8601DateFormatter stamps it, to the second, in UTC",
          arguments: [0, 1_700_000_000.999, 1_790_000_000.25, -86_400 * 365.25 * 30, 4_102_444_799.5])
    func stampedAsAFormatterWould(_ seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(ImportPipeline.stamp(date) == ISO8601DateFormatter().string(from: date))
    }
}
