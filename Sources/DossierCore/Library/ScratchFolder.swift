import Foundation

/// Where a run keeps the bytes of photos too large to hold in memory while it works on them
/// (`ScratchFile`), and where the image codecs keep such a photo's coefficients and pixels.
///
/// For an import, the library's staging folder: on the library's file system, so that filing
/// links a scratch file to its final name instead of copying it, reached without following links
/// like every other path in the library, and cleared by the next run of whatever a crash left.
/// A dry run writes nothing into the library, so it uses the system's temporary folder.
public struct ScratchFolder: Sendable {
    public let path: String
    /// The library's files, when the folder is its staging folder.
    let files: LibraryFileSystem?

    public static func staging(of layout: LibraryLayout) -> ScratchFolder {
        ScratchFolder(path: layout.stagingFolder.path, files: layout.files)
    }

    /// A folder of the library's own other than staging (the thumbnail cache's), for work done
    /// without the library's lock: an import clears staging when it starts, under the lock.
    public static func folder(_ path: String, of layout: LibraryLayout) -> ScratchFolder {
        ScratchFolder(path: path, files: layout.files)
    }

    public static var temporary: ScratchFolder {
        ScratchFolder(path: URL(fileURLWithPath: NSTemporaryDirectory()).standardizedFileURL.path, files: nil)
    }

    /// Whether files made here can be linked into the library.
    public var isInLibrary: Bool { files != nil }

    /// Creates a new file for writing and reading back; the caller closes the descriptor.
    func createFile() throws(LibraryError) -> (path: String, descriptor: Int32) {
        let path = "\(self.path)/\(UUID().uuidString).scratch"
        if let files { return (path, try files.createFile(path, readingBack: true)) }
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: .errno()) }
        return (path, descriptor)
    }

    /// Opens a file made here for reading; the caller closes the descriptor.
    func openForReading(_ path: String) throws(LibraryError) -> Int32 {
        if let files { return try files.openForReading(path) }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, reason: .errno()) }
        return descriptor
    }

    func remove(_ path: String) {
        if let files {
            try? files.remove(path)
        } else {
            unlink(path)
        }
    }

    /// Runs `body` with the folder open: the codecs make their unlinked scratch files in it.
    public func withOpenFolder<Result>(_ body: (Int32) throws -> Result) throws -> Result {
        let descriptor: Int32
        if let files {
            descriptor = try files.openFolder(path)
        } else {
            descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw LibraryError.cannotRead(path: path, reason: .errno()) }
        }
        defer { close(descriptor) }
        return try body(descriptor)
    }
}
