import Foundation
import Crypto

/// One file offered for import, as it was when discovered.
public struct SourceFile: Hashable, Sendable {
    /// Absolute, standardised path.
    public let path: String
    public let size: Int64
    /// Modification time in nanoseconds since 1970. Anyone can set it back (`touch -r`,
    /// `exiftool -P`, a FAT card's two-second times), so it never alone says a file is unchanged:
    /// with its size, device, inode and change time, it is the status that does (`isUnchanged`).
    public let modificationTime: Int64
    /// Device and inode of the file its bytes are read from (for a link followed, the file it
    /// leads to), as they were when it was found: a read opens that very file or nothing
    /// (`openForReading`). Nil for a source made without its status (a test, a fuzz target).
    public var identity: FileIdentity?
    /// Its change time in nanoseconds (`st_ctim`), as it was when it was found: every write moves
    /// it, and no one but the kernel sets it, so a same-size edit whose modification time was put
    /// back still shows. Nil when not known.
    public var changeTime: Int64?
    /// When its status was read (the wall clock, in nanoseconds since 1970): a change time too
    /// close to it proves nothing (`statusIsRacy`). Nil when not known.
    public var statusTakenAt: Int64?
    /// How the symbolic link at `path` was taken, when it is one (`SourceLink`); nil for a file.
    public var link: SourceLink?
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
    /// The file at `path` as `info` (its `stat`, or for a link followed its target's) says it is;
    /// read from `readPath` when that is not `path` (a kept copy, a quarantined file).
    /// `statusTakenAt`: the clock read just before `info` was (`SourceFile.clock()`); without it,
    /// the clock now, a moment later.
    public init(path: String, info: stat, readPath: String? = nil, namedFolder: String? = nil, link: SourceLink? = nil,
                statusTakenAt: Int64? = nil) {
        self.init(path: path, size: Int64(info.st_size), modificationTime: SourceFile.nanoseconds(of: info.st_mtim),
                  readPath: readPath, namedFolder: namedFolder)
        identity = FileIdentity(info)
        changeTime = SourceFile.nanoseconds(of: info.st_ctim)
        self.statusTakenAt = statusTakenAt ?? SourceFile.clock()
        self.link = link
    }

    /// The wall clock in nanoseconds since 1970, as a file's times are kept.
    public static func clock() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return nanoseconds(of: now)
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

    /// The same file with the same status as when `earlier` was found: size, modification time,
    /// device, inode and change time. A same-size edit whose modification time was put back
    /// moves the change time; a file renamed over it has another inode. Without `earlier`'s
    /// whole status, only size and time can be compared (a source made by hand). A status that
    /// was racy when taken (`statusIsRacy`) proves it only with its bytes hashed again.
    public func isUnchanged(since earlier: SourceFile) -> Bool {
        guard size == earlier.size && modificationTime == earlier.modificationTime else { return false }
        guard let before = earlier.identity, let then = earlier.changeTime else { return true }
        return identity == before && changeTime == then
    }

    /// The same file, of the same size and modification time, whose change time alone moved since
    /// `earlier` was found: its bytes may be the same (another name of it removed, a `chmod`), or
    /// a same-size edit whose time was put back. Only its bytes, hashed again, can tell.
    public func onlyChangeTimeMoved(since earlier: SourceFile) -> Bool {
        size == earlier.size && modificationTime == earlier.modificationTime && earlier.identity != nil
            && identity == earlier.identity && changeTime != earlier.changeTime
    }

    /// Whether its status was taken too soon after its last change to prove anything (git's
    /// "racily clean" entries): a file system keeps a change time only to its own grain (a whole
    /// second on ext4 made with 128-byte inodes, ext3 and HFS+; two on FAT; a clock tick on
    /// others), so an edit made later within the same grain leaves the same change time, size
    /// and (put back) modification time. A status whose change time is not older than the
    /// moment it was taken by more than that grain is racy: a source of that status is never
    /// settled unread by it, nor removed before its bytes are hashed again.
    public var statusIsRacy: Bool {
        SourceFile.statusIsRacy(changeTime: changeTime, takenAt: statusTakenAt)
    }

    /// `statusIsRacy` for a change time and the moment its status was taken, both in nanoseconds;
    /// either unknown is racy. A change time with no part of a second is taken as kept to whole
    /// seconds, and given three (FAT's two, and one more for the moments between the status and
    /// the clock); any other, 50 ms (a clock tick is at most 10 ms, and a few file systems keep
    /// 10 ms).
    public static func statusIsRacy(changeTime: Int64?, takenAt: Int64?) -> Bool {
        guard let changeTime, let takenAt else { return true }
        let grain: Int64 = changeTime % 1_000_000_000 == 0 ? 3_000_000_000 : 50_000_000
        return changeTime > takenAt - grain
    }

    /// Opens its bytes for reading (`readPath`), and only the file that was found: a file is
    /// opened without following a link (one put in its place since is refused), a link that was
    /// followed is opened through it, and either is refused unless the file opened is the one
    /// found, by device and inode (another file renamed over it, a link pointed elsewhere since).
    /// So nothing a link leads to is ever read unless it was checked first (`SourceLink`). Never
    /// blocks on a FIFO put in its place. The caller closes the descriptor.
    public func openForReading() throws(SourceReadError) -> Int32 {
        if case .refused(let reason) = link { throw .unreadable(reason) }
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (link == .followed ? 0 : O_NOFOLLOW)
        let descriptor = SourcePath.withFileSystemPath(readPath) { open($0, flags) }
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP && link != .followed {
                throw .unreadable("it was replaced by a symbolic link after it was found; Dossier never reads a file through "
                    + "a link put in its place")
            }
            throw .unreadable(String(cString: strerror(code)))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw .unreadable(String(cString: strerror(code)))
        }
        guard info.st_mode & S_IFMT == S_IFREG, identity == nil || identity == FileIdentity(info) else {
            close(descriptor)
            throw .unreadable("it was replaced by another file after it was found (a file renamed over it, or a link "
                + "pointed elsewhere); it is read again at the next import")
        }
        return descriptor
    }

    /// SHA-256 of its bytes as they are now, read from the very file that was found
    /// (`openForReading`).
    public func currentDigest() throws -> ContentDigest {
        let descriptor = try openForReading()
        defer { close(descriptor) }
        return try ScratchFile.hash(descriptor).1
    }
}

// MARK: - FileIdentity

/// A file's device and inode: which file a name leads to, whatever the name.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    public init(_ info: stat) {
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}

// MARK: - SourceInput

/// A source as an importer gets it: the file, and its bytes on request. Importers that stream
/// (text) open it themselves, with `source.openForReading()`; the others read it whole.
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
        SourceInput(source: source, head: try DurableFileSystem.readHead(of: source, count: ImportPipeline.sniffLength))
    }

    /// The whole file and its digest; refused above `ImportPipeline.maximumSourceSize`.
    public func readAll() throws -> SourceData {
        SourceData(source: source,
                   bytes: try DurableFileSystem.readFile(of: source, limit: ImportPipeline.maximumSourceSize))
    }

    /// The whole file copied into `folder` (for a file too large to hold in memory), hashed as it
    /// is copied; refused, as `readAll` does, above `limit` (`ImportPipeline.maximumSourceSize`
    /// unless the importer streams the file, as videos are).
    public func copy(into folder: ScratchFolder, limit: Int64 = ImportPipeline.maximumSourceSize) throws -> ScratchFile {
        guard source.size <= limit else {
            throw SourceReadError.tooLarge(size: source.size, limit: limit)
        }
        return try ScratchFile.copy(of: source, in: folder)
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
