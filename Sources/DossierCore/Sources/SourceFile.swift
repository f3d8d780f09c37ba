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

    public init(path: String, size: Int64, modificationTime: Int64, readPath: String? = nil) {
        self.path = path
        self.size = size
        self.modificationTime = modificationTime
        self.readPath = readPath ?? path
    }

    public var fileName: String { (path as NSString).lastPathComponent }

    public var modificationDate: Date {
        Date(timeIntervalSince1970: Double(modificationTime) / 1_000_000_000)
    }

    /// The folders above the file, nearest first.
    public var ancestorFolders: [String] {
        var folders: [String] = []
        var current = (path as NSString).deletingLastPathComponent
        while !current.isEmpty && current != "/" {
            folders.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        return folders
    }
}
