import Foundation
import Testing
@testable import DossierPhotos

/// The budget that keeps several big turns from running at once, whatever --jobs says.
@Suite("The memory budget of turns under way")
struct TurnMemoryBudgetTests {
    /// Runs `shares` on threads of their own, each holding its reservation for a moment, and
    /// returns the most that was held at once and how many ran at once.
    static func peak(capacity: Int, shares: [Int]) -> (bytes: Int, turns: Int) {
        let budget = TurnMemoryBudget(capacity: capacity)
        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var held = 0, running = 0, peakBytes = 0, peakTurns = 0
        }
        let tally = Tally()
        let group = DispatchGroup()
        for share in shares {
            let thread = Thread {
                budget.withReservation(of: share) {
                    tally.lock.lock()
                    tally.held += min(share, capacity)
                    tally.running += 1
                    tally.peakBytes = max(tally.peakBytes, tally.held)
                    tally.peakTurns = max(tally.peakTurns, tally.running)
                    tally.lock.unlock()
                    usleep(20_000)
                    tally.lock.lock()
                    tally.held -= min(share, capacity)
                    tally.running -= 1
                    tally.lock.unlock()
                }
                group.leave()
            }
            group.enter()
            thread.start()
        }
        group.wait()
        return (tally.peakBytes, tally.peakTurns)
    }

    @Test("Big turns wait for each other; the budget is never exceeded")
    func bigTurnsTakeTurns() {
        let result = TurnMemoryBudgetTests.peak(capacity: 100, shares: [60, 60, 60, 60])
        #expect(result.turns == 1)
        #expect(result.bytes == 60)
    }

    @Test("Small turns run side by side, and one larger than the whole budget runs alone")
    func smallTurnsShare() {
        #expect(TurnMemoryBudgetTests.peak(capacity: 100, shares: [20, 20, 20, 20]).turns == 4)
        let withGiant = TurnMemoryBudgetTests.peak(capacity: 100, shares: [500, 500, 10])
        #expect(withGiant.bytes <= 100)
    }

    @Test("A 12000x12000 JPEG is estimated above the budget; a 12 MP photo far below it")
    func estimates() {
        let capacity = TurnMemoryBudget.shared.capacity
        #expect(TurnMemoryBudget.estimate(width: 12_000, height: 12_000, bytesPerPixel: JPEGHandler.turnBytesPerPixel) > capacity)
        #expect(TurnMemoryBudget.estimate(width: 4032, height: 3024, bytesPerPixel: JPEGHandler.turnBytesPerPixel) * 6 < capacity)
    }
}
