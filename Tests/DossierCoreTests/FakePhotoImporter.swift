import Foundation
import Synchronization
@testable import DossierCore

/// Counts calls across concurrent workers.
final class CallCounter: Sendable {
    private let current = Atomic<Int>(0)
    private let peak = Atomic<Int>(0)
    private let total = Atomic<Int>(0)

    var calls: Int { total.load(ordering: .relaxed) }
    var mostAtOnce: Int { peak.load(ordering: .relaxed) }

    func enter() {
        total.add(1, ordering: .relaxed)
        let now = current.add(1, ordering: .relaxed).newValue
        var seen = peak.load(ordering: .relaxed)
        while now > seen {
            let (exchanged, original) = peak.compareExchange(expected: seen, desired: now, ordering: .relaxed)
            if exchanged { break }
            seen = original
        }
    }

    func leave() { current.subtract(1, ordering: .relaxed) }
}

/// Reads test files of the form `FAKE <yyyy-mm-dd> <anything>` as a photo dated that day;
/// `FAKE BAD` fails the way a corrupt file would.
struct FakePhotoImporter: Importer {
    let name = "fake"
    /// A photo is filed itself; there is no text to keep beside it.
    let keepsSource = false
    let summary = "test photos"
    let counter: CallCounter

    struct Corrupt: Error, CustomStringConvertible {
        var description: String { "fake data is corrupt: it says BAD" }
    }

    func canRead(head: [UInt8]) -> Bool { head.starts(with: Array("FAKE".utf8)) }

    func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        let data = try input.readAll()
        counter.enter()
        defer { counter.leave() }
        Thread.sleep(forTimeInterval: 0.02)  // long enough for workers to overlap
        let text = String(decoding: data.bytes, as: UTF8.self)
        let fields = text.split(separator: " ")
        guard fields.count >= 2, fields[1] != "BAD" else { throw Corrupt() }
        let day = fields[1].split(separator: "-").compactMap { Int($0) }
        let date = LocalDateTime(year: day[0], month: day[1], day: day[2])!
        try sink.accept(.photo(Photo(source: data.source, format: .png, content: .memory(data.bytes), sourceDigest: data.digest,
                                     orientation: .up, width: 1, height: 1,
                                     captureDate: CaptureDate(date, origin: .exifDateTimeOriginal), exif: nil)))
    }
}

/// Appends "!" to each photo's bytes, so tests can tell filed bytes from source bytes.
struct MarkingTransform: Transform {
    let name = "mark"
    let summary = "test transform"
    let stage = TransformStage.content

    func apply(to batch: inout ItemBatch, context: PipelineContext) throws {
        for index in batch.items.indices {
            guard case .photo(var photo) = batch.items[index], case .memory(let bytes) = photo.content else { continue }
            photo.content = .memory(bytes + Array("!".utf8))
            batch.items[index] = .photo(photo)
        }
    }
}
