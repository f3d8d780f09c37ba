import DossierCore
import Logging

/// The daemon's log line for each thing opening the library did (its index rebuilt, say).
struct NoticeLog: OutcomeListener {
    let logger: Logger

    func receive(_ event: ImportEvent) {
        if case .notice(let notice) = event { logger.record(.library, level: .warning, ["reason": "\(notice)"]) }
    }
}
