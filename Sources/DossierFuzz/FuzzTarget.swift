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
    /// JPEG headers, EXIF and the lossless turn (libjpeg), through the importer and transform;
    /// each input also taken as a large photo (through scratch files), which must give the same
    /// bytes or the same refusal.
    case jpeg
    /// PNG chunks, eXIf and the turn (libpng), both ways as for JPEG.
    case png
    /// HEIF: libheif's parser, the box reader's `meta` walk and the in-place EXIF reset, through
    /// the importer and the orient transform (no rendition: decoding is libheif's, fuzzed upstream).
    case heif
    /// Movies: the box reader's `moov` walk (dates, matrices, QuickTime keys), through the importer.
    case movie

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
            turnBothWays(bytes, JPEGHandler(), JPEGHandler(largePhoto: FuzzTarget.everyPhotoLarge))
        case .png:
            turnBothWays(bytes, PNGHandler(), PNGHandler(largePhoto: FuzzTarget.everyPhotoLarge))
        case .heif:
            turnBothWays(bytes, HEIFHandler(), HEIFHandler(largePhoto: FuzzTarget.everyPhotoLarge))
        case .movie:
            read(bytes, with: MovieHandler(), checking: MovieHandler().canRead(head:))
        }
    }

    static let everyPhotoLarge = LargePhoto(fileSize: 0, pixels: 0)

    /// Turns a photo in memory and through scratch files: a difference is a bug, and crashes.
    private func turnBothWays(_ bytes: [UInt8], _ inMemory: some PhotoFormatHandler, _ throughFiles: some PhotoFormatHandler) {
        let expected = read(bytes, with: inMemory, checking: inMemory.canRead(head:), turningWith: inMemory)
        let got = read(bytes, with: throughFiles, checking: throughFiles.canRead(head:), turningWith: throughFiles)
        switch (expected, got) {
        case (.success(let expected)?, .success(let got)?):
            precondition(expected == got, "the photo turned through scratch files differs from the one turned in memory")
        case (.failure(let expected)?, .failure(let got)?):
            precondition("\(expected)" == "\(got)", "refused differently: \(expected) / \(got)")
        case (nil, nil):
            break
        default:
            preconditionFailure("one way turned the photo, the other did not: \(String(describing: expected)) / \(String(describing: got))")
        }
    }

    /// Reads the bytes as a source file with the importer, as the pipeline would; with a handler,
    /// photos are then turned upright by it, and the upright photo's bytes (or why there are
    /// none) given back.
    @discardableResult
    private func read(_ bytes: [UInt8], with importer: some Importer, checking canRead: ([UInt8]) -> Bool,
                      turningWith handler: (any PhotoFormatHandler)? = nil) -> Result<[UInt8], Error>? {
        let head = Array(bytes.prefix(ImportPipeline.sniffLength))
        guard canRead(head), let path = FuzzTarget.write(bytes) else { return nil }
        let source = SourceFile(path: path, size: Int64(bytes.count), modificationTime: 1_700_000_000_000_000_000)
        let sink = FuzzSink()
        do {
            try importer.read(SourceInput(source: source, head: head), context: FuzzTarget.context, into: sink)
        } catch {
            return .failure(error)
        }
        guard let handler else { return nil }
        var batch = ItemBatch(items: sink.items.filter { if case .photo = $0 { return true } else { return false } })
        return Result {
            try OrientTransform(handlers: [handler]).apply(to: &batch, context: FuzzTarget.context)
            guard case .photo(let photo)? = batch.items.first else { return [] }
            switch photo.content {
            case .memory(let bytes): return bytes
            case .file(let file): return try file.read(at: 0, count: Int(file.size))
            }
        }
    }

    /// The input as a file, in place of the one before.
    private static func write(_ bytes: [UInt8]) -> String? {
        let path = scratch.appendingPathComponent("input").path
        return FileManager.default.createFile(atPath: path, contents: Data(bytes)) ? path : nil
    }
}
