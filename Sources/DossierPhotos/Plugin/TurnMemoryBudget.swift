import DossierCore
import Foundation

/// Bounds the memory the photos being turned at once may take together, whatever `--jobs` says.
///
/// Turning a picture holds it whole: a JPEG's DCT coefficients (2 bytes a sample), and on the
/// pixel path its samples too; a PNG's rows in and out. The largest photos take close to a
/// gigabyte each, so four jobs meeting four of them would take several. Each turn reserves its
/// estimate first and waits while the photos under way hold the rest; one larger than the whole
/// budget runs on its own. Everyday photos pass several at a time and never wait.
///
/// The wait blocks its thread. Turns run on the import's source threads (`BlockingExecutor`, off
/// Swift's cooperative pool), at most `--jobs` of them, and a reservation is only ever waited on
/// by a turn, never held across one: the holders are always running, so they finish and wake
/// the waiters.
final class TurnMemoryBudget: Sendable {
    static let shared = TurnMemoryBudget(capacity: 768 << 20)

    private let budget: BlockingWork.SharedBudget
    var capacity: Int { budget.capacity }

    init(capacity: Int) {
        budget = BlockingWork.SharedBudget(capacity: capacity)
    }

    /// Runs `body` once `bytes` (at most the whole budget) are free.
    func withReservation<Result>(of bytes: Int, _ body: () throws -> Result) rethrows -> Result {
        try budget.withReservation(of: bytes, body)
    }

    /// What turning a large photo through scratch files holds at its peak: the resident parts of
    /// its mapped scratch files (at most DOSSIER_SCRATCH_RESIDENT, 32 MiB, each and a little
    /// more, for the three turned components read together) and the codecs' buffers.
    static let largePhotoEstimate = 160 << 20

    /// What turning a picture of `width` x `height` in memory may hold at its peak, at what its
    /// format's turn holds a pixel (`JPEGHandler.turnBytesPerPixel`, `HEIFRendition.bytesPerPixel`).
    /// A size a damaged file declares (a PNG's IHDR of 2^31 x 2^31) is more than any budget: the
    /// product saturates rather than overflow, and the decoder then refuses the picture.
    static func estimate(width: Int, height: Int, bytesPerPixel: Int) -> Int {
        let (pixels, overflow) = max(width, 0).multipliedReportingOverflow(by: max(height, 0))
        let (bytes, overflowAgain) = pixels.multipliedReportingOverflow(by: max(bytesPerPixel, 0))
        return overflow || overflowAgain ? .max : bytes
    }
}
