import Foundation
import Crypto

/// One file offered for import, as it was when discovered.
public struct SourceFile: Hashable, Sendable {
    /// Absolute, standardised path.
    public let path: String
    public let size: Int64
    /// Modification time in nanoseconds since 1970; with size and path, what the index keys on
    /// to skip an unchanged source without reading it.
    public let modificationTime: Int64
    /// Where its bytes are read: the path itself, except when the problems ledger retries a
    /// source from the library's kept copy (`path` then stays the original, as records name it).
    public var readPath: String
    /// The folder the user named that the file was found in (for a file named itself, its own
    /// folder): routing reads folder names only below it, so `dossier import ~/adv/dump` is not
    /// filed under a pet called adv. Nil: every folder above the file counts.
    public var namedFolder: String?

    public init(path: String, size: Int64, modificationTime: Int64, readPath: String? = nil, namedFolder: String? = nil) {
        self.path = path
        self.size = size
        self.modificationTime = modificationTime
        self.readPath = readPath ?? path
        self.namedFolder = namedFolder
    }

    public var fileName: String { (path as NSString).lastPathComponent }

    public var modificationDate: Date {
        Date(timeIntervalSince1970: Double(modificationTime) / 1_000_000_000)
    }

    /// The folders above the file and below the folder the user named, nearest first.
    public var ancestorFolders: [String] {
        var folders: [String] = []
        var current = (path as NSString).deletingLastPathComponent
        while !current.isEmpty && current != "/" && current != namedFolder {
            folders.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        return folders
    }
}

// MARK: - SourceFile+Stat

extension SourceFile {
    public init(path: String, info: stat, namedFolder: String? = nil) {
        self.init(path: path, size: Int64(info.st_size), modificationTime: SourceFile.nanoseconds(of: info.st_mtim),
                  namedFolder: namedFolder)
    }

    /// A `stat` time in nanoseconds since 1970, held to what an `Int64` holds (about 1677 to 2262):
    /// a file's time is whatever its last writer set (`touch -d 2300-01-01`, a hostile archive), and
    /// seconds times 10^9 past 2262 must not stop an import or the daemon on every start. Times
    /// beyond either end all read as that end, far outside the years any date is taken from.
    public static func nanoseconds(of time: timespec) -> Int64 {
        let (scaled, overflow) = Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return time.tv_sec < 0 ? .min : .max }
        let (total, carried) = scaled.addingReportingOverflow(Int64(time.tv_nsec))
        return carried ? .max : total
    }

    /// Same size and modification time as when it was read.
    func isUnchanged(since earlier: SourceFile) -> Bool {
        size == earlier.size && modificationTime == earlier.modificationTime
    }
}

// MARK: - SourceInput

/// A source as an importer gets it: the file, and its bytes on request. Importers that stream
/// (text) open the file at `source.path` themselves; the others read it whole.
public struct SourceInput: Sendable {
    public let source: SourceFile
    /// The first bytes, as sniffed.
    public let head: [UInt8]

    public init(source: SourceFile, head: [UInt8]) {
        self.source = source
        self.head = head
    }

    /// The source with its first `ImportPipeline.sniffLength` bytes as its head: a binary source
    /// as the pipeline hands it over, for a plugin that reads another file beside the one it was
    /// given (a Live Photo's still).
    public static func sniffing(_ source: SourceFile) throws -> SourceInput {
        SourceInput(source: source, head: try DurableFileSystem.readHead(source.readPath, count: ImportPipeline.sniffLength))
    }

    /// The whole file and its digest; refused above `ImportPipeline.maximumSourceSize`.
    public func readAll() throws -> SourceData {
        SourceData(source: source,
                   bytes: try DurableFileSystem.readFile(source.readPath, limit: ImportPipeline.maximumSourceSize))
    }

    /// The whole file copied into `folder` (for a file too large to hold in memory), hashed as it
    /// is copied; refused, as `readAll` does, above `limit` (`ImportPipeline.maximumSourceSize`
    /// unless the importer streams the file, as videos are).
    public func copy(into folder: ScratchFolder, limit: Int64 = ImportPipeline.maximumSourceSize) throws -> ScratchFile {
        guard source.size <= limit else {
            throw SourceReadError.tooLarge(size: source.size, limit: limit)
        }
        return try ScratchFile.copy(of: source.readPath, in: folder)
    }
}

// MARK: - SourceData

/// A source's bytes as read for import, with their digest.
public struct SourceData: Sendable {
    public let source: SourceFile
    public let bytes: [UInt8]
    /// SHA-256 of `bytes`.
    public let digest: ContentDigest

    public init(source: SourceFile, bytes: [UInt8]) {
        self.source = source
        self.bytes = bytes
        digest = ContentDigest(of: bytes)
    }
}

// MARK: - ContentDigest

/// A SHA-256 digest of file contents: the identity used for deduplication.
public struct ContentDigest: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// A digest already computed (32 bytes).
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A digest written as 64 hex digits, as the index keeps it; nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = ContentDigest.value(ofHexDigit: digits[index]),
                  let low = ContentDigest.value(ofHexDigit: digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    private static func value(ofHexDigit digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    public init(of data: [UInt8]) {
        bytes = Array(SHA256.hash(data: data))
    }

    public var hex: String { hex(digits: 64) }

    /// The first 8 hex digits: what a filed photo's name carries.
    public var shortHex: String { hex(digits: 8) }

    /// The first `digits` hex digits (at most 64).
    public func hex(digits: Int) -> String {
        let alphabet: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: digits) { buffer in
            alphabet.withUTF8Buffer { alphabet in
                for index in 0..<digits {
                    let byte = bytes[index / 2]
                    buffer[index] = alphabet[Int(index % 2 == 0 ? byte >> 4 : byte & 0x0F)]
                }
            }
            return digits
        }
    }

    public var description: String { hex }
}
