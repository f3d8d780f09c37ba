import Foundation

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
