import DossierCore
import Foundation

/// `--json`: one object per source as it finishes, then one summary object, each on its own line
/// of standard output.
struct JSONLinesReporter: OutcomeListener {
    func receive(_ event: ImportEvent) {
        switch event {
        case .notice(let notice):
            // Standard output holds only the outcome lines and the summary.
            StandardStreams.writeError("dossier: \(notice)\n")
        case .started:
            break
        case .finished(let outcome, _, _):
            StandardStreams.writeOut(JSONLinesReporter.line(for: outcome))
        case .completed(let summary):
            StandardStreams.writeOut(JSONLinesReporter.line(for: summary))
        }
    }

    /// A source's line, written straight (`JSONLineWriter`), its keys in the order
    /// `serializedLine(for:)`'s sorting puts them in (`JSONLineWriterTests` holds the two equal).
    static func line(for outcome: SourceOutcome) -> String {
        // Profiles' changes are objects keyed by subject, in the order JSONSerialization's
        // collation sorts those: rare, and left to it.
        if outcome.profileChanges.contains(where: { !$0.changed.isEmpty || !$0.keptTyped.isEmpty }) {
            return serializedLine(for: outcome)
        }
        var line = JSONLineWriter()
        if !outcome.alsoFiled.isEmpty { line.add("alsoFiled", outcome.alsoFiled) }
        if let cause = outcome.cause { line.add("cause", cause.name) }
        if outcome.damaged { line.add("damaged", true) }
        if let dateFrom = outcome.dateFrom { line.add("dateFrom", dateFrom) }
        line.add("destination", outcome.destination)
        line.add("error", outcome.error)
        if let code = outcome.errorCode { line.add("errorCode", code) }
        if let format = outcome.format { line.add("format", format) }
        if outcome.motion { line.add("motion", true) }
        if let original = outcome.original { line.add("original", original) }
        if !outcome.problems.isEmpty { line.add("problems", outcome.problems) }
        if let reading = outcome.reading { line.add("reading", reading) }
        if outcome.hasRecords || outcome.recordsRemoved > 0 {
            line.add("records", ["added": outcome.recordsAdded, "duplicate": outcome.recordsDuplicate, "removed": outcome.recordsRemoved])
        }
        if outcome.refiled { line.add("refiled", true) }
        if let rendition = outcome.rendition { line.add("rendition", rendition) }
        if !outcome.replacedRecords.isEmpty { line.add("replaced", outcome.replacedRecords) }
        if let rotation = outcome.rotation { line.add("rotation", rotation) }
        line.add("source", outcome.source)
        if outcome.sourceRemoved { line.add("sourceRemoved", true) }
        if let stage = outcome.stage { line.add("stage", stage.rawValue) }
        line.add("status", outcome.status.rawValue)
        line.add("subject", outcome.subject?.path)
        if !outcome.subjects.isEmpty { line.add("subjects", outcome.subjects.map(\.path)) }
        if let taken = outcome.taken { line.add("taken", taken) }
        if !outcome.warnings.isEmpty { line.add("warnings", outcome.warnings) }
        return line.line
    }

    /// A source's line as JSONSerialization writes it, keys sorted: what `line(for:)` writes.
    static func serializedLine(for outcome: SourceOutcome) -> String {
        var object: [String: Any] = [
            "source": outcome.source,
            "status": outcome.status.rawValue,
            "subject": outcome.subject?.path ?? NSNull(),
            "destination": outcome.destination ?? NSNull(),
            "error": outcome.error ?? NSNull(),
        ]
        if let code = outcome.errorCode { object["errorCode"] = code }
        if let cause = outcome.cause { object["cause"] = cause.name }
        if let taken = outcome.taken { object["taken"] = taken }
        if let dateFrom = outcome.dateFrom { object["dateFrom"] = dateFrom }
        if let format = outcome.format { object["format"] = format }
        if let rendition = outcome.rendition { object["rendition"] = rendition }
        if !outcome.alsoFiled.isEmpty { object["alsoFiled"] = outcome.alsoFiled }
        if let rotation = outcome.rotation { object["rotation"] = rotation }
        if outcome.motion { object["motion"] = true }
        if outcome.damaged { object["damaged"] = true }
        if outcome.refiled { object["refiled"] = true }
        if let original = outcome.original { object["original"] = original }
        if !outcome.warnings.isEmpty { object["warnings"] = outcome.warnings }
        if !outcome.problems.isEmpty { object["problems"] = outcome.problems }
        if let reading = outcome.reading { object["reading"] = reading }
        if !outcome.subjects.isEmpty { object["subjects"] = outcome.subjects.map(\.path) }
        if outcome.hasRecords || outcome.recordsRemoved > 0 {
            object["records"] = ["added": outcome.recordsAdded, "duplicate": outcome.recordsDuplicate,
                                 "removed": outcome.recordsRemoved]
        }
        if !outcome.replacedRecords.isEmpty { object["replaced"] = outcome.replacedRecords }
        let changed = outcome.profileChanges.filter { !$0.changed.isEmpty }
        if !changed.isEmpty {
            object["profiles"] = Dictionary(uniqueKeysWithValues: changed.map { ($0.subject.path, $0.changed) })
        }
        let kept = outcome.profileChanges.filter { !$0.keptTyped.isEmpty }
        if !kept.isEmpty {
            object["profilesKept"] = Dictionary(uniqueKeysWithValues: kept.map { change in
                (change.subject.path, change.keptTyped.map { ["field": $0.field, "kept": $0.kept, "imported": $0.imported] })
            })
        }
        if outcome.sourceRemoved { object["sourceRemoved"] = true }
        if let stage = outcome.stage { object["stage"] = stage.rawValue }
        return serialize(object)
    }

    static func line(for summary: ImportSummary) -> String {
        var counts: [String: Any] = Dictionary(uniqueKeysWithValues: ImportStatus.allCases.map { ($0.rawValue, summary[$0]) })
        counts["total"] = summary.total
        counts["seconds"] = (summary.seconds * 1000).rounded() / 1000
        counts["dryRun"] = summary.dryRun
        counts["recordsRemoved"] = summary.recordsRemoved
        counts["interrupted"] = summary.interrupted
        counts["leftForYou"] = summary.leftForYou
        counts["hidden"] = summary.hidden
        counts["linksNotFollowed"] = summary.linksNotFollowed
        if let library = summary.library { counts["library"] = library }
        return serialize(["summary": counts])
    }

    /// The line for a library failure that stopped the import (a full disk, the index broken):
    /// its stable code, the code of the layer below, and the words; no summary follows.
    static func line(for error: LibraryError) -> String {
        var object: [String: Any] = ["code": error.code, "message": "\(error)"]
        if let cause = error.cause?.code { object["cause"] = cause.name }
        return serialize(["libraryError": object])
    }

    private static func serialize(_ object: [String: Any]) -> String {
        // Every value put in is a string, number, bool, null, array or dictionary: serialisation cannot fail.
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
