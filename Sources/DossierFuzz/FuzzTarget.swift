import DossierCore
import DossierPhotos
import DossierRecords
import Foundation
import Logging

/// What `scripts/fuzz` throws random bytes at: each of Dossier's readers of untrusted input, by
/// its public entry point, the way an import calls it. A target must never crash, hang or grow
/// without bound; any error it throws is a refusal, which is fine.
enum FuzzTarget: String, CaseIterable {
    /// Encoding detection and line splitting (UTF-8, UTF-16, CP949, CR/LF/CRLF, overlong lines).
    case text
    /// Notepad logs: dates, weekdays, times, names, sections; through the importer.
    case notepad
    /// CSV: sniffing, quoting, headers, cells, dates and numbers; through the importer.
    case csv
    /// Property lists, XML and binary, and what the importer makes of their shapes.
    case plist
    /// JPEG headers, EXIF and the lossless turn (libjpeg), through the importer and transform.
    case jpeg
    /// PNG chunks, eXIf and the turn (libpng).
    case png

    /// Where inputs are written for readers that read files: a RAM-backed folder where there is one.
    static let scratch: URL = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let folder = URL(fileURLWithPath: base).appendingPathComponent("dossier-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    static let leo = try! Subject(parsing: "pets/leo")
    static let mina = try! Subject(parsing: "children/mina")

    /// A library with two subjects that never exists on disk: importers only read its settings,
    /// which fall back to the built-in ones.
    static let context = PipelineContext(
        logger: Logger(label: "fuzz"), layout: LibraryLayout(root: scratch.appendingPathComponent("Library")),
        routing: RoutingContext(requestedSubject: nil, existingSubjects: [leo, mina],
                                names: [leo: ["leo", "레오", "Leo"], mina: ["mina", "민아"]]),
        timeZone: TimeZone(identifier: "Asia/Seoul")!)

    func run(_ bytes: [UInt8]) {
        switch self {
        case .text:
            guard let path = FuzzTarget.write(bytes), let reader = try? LineReader(path: path, chunkSize: 64) else { return }
            while let line = try? reader.next() { _ = line.text.utf8.count }
        case .notepad:
            read(bytes, with: NotepadImporter(), checking: { _ in true })
        case .csv:
            read(bytes, with: CSVImporter(), checking: CSVImporter().canRead(head:))
        case .plist:
            read(bytes, with: PropertyListImporter(), checking: PropertyListImporter().canRead(head:))
        case .jpeg:
            read(bytes, with: JPEGImporter(), checking: JPEGImporter().canRead(head:), turning: true)
        case .png:
            read(bytes, with: PNGImporter(), checking: PNGImporter().canRead(head:), turning: true)
        }
    }

    /// Reads the bytes as a source file with the importer, as the pipeline would; photos are
    /// then turned upright.
    private func read(_ bytes: [UInt8], with importer: some Importer, checking canRead: ([UInt8]) -> Bool, turning: Bool = false) {
        let head = Array(bytes.prefix(ImportPipeline.sniffLength))
        guard canRead(head), let path = FuzzTarget.write(bytes) else { return }
        let source = SourceFile(path: path, size: Int64(bytes.count), modificationTime: 1_700_000_000_000_000_000)
        let sink = FuzzSink()
        try? importer.read(SourceInput(source: source, head: head), context: FuzzTarget.context, into: sink)
        guard turning else { return }
        var batch = ItemBatch(items: sink.items.filter { if case .photo = $0 { return true } else { return false } })
        try? OrientTransform().apply(to: &batch, context: FuzzTarget.context)
    }

    /// The input as a file, in place of the one before.
    private static func write(_ bytes: [UInt8]) -> String? {
        let path = scratch.appendingPathComponent("input").path
        return FileManager.default.createFile(atPath: path, contents: Data(bytes)) ? path : nil
    }
}
