import Foundation

/// Reading sources, and the write loop every durable write uses. Sources lie outside the library
/// and are only ever read here (and removed by the pipeline once their bytes are safe); the
/// library's own files are reached through `LibraryFileSystem`, which never follows a link.
enum DurableFileSystem {
    /// Writes every byte, retrying short and interrupted writes.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(LibraryError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw .cannotWrite(path: path, reason: .errno()) }
            offset += written
        }
    }

    static func isFolder(_ path: String) -> Bool {
        SourcePath.status(path).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
    }

    /// Reads a whole source, refusing one larger than `limit` bytes before allocating for it.
    static func readFile(of source: SourceFile, limit: Int64) throws(SourceReadError) -> [UInt8] {
        try withOpenFile(source) { descriptor throws(SourceReadError) in
            try readAll(descriptor, limit: limit)
        }
    }

    /// The whole of an open file, refusing one larger than `limit` bytes before allocating for it.
    static func readAll(_ descriptor: Int32, limit: Int64) throws(SourceReadError) -> [UInt8] {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(errnoMessage()) }
        guard Int64(info.st_size) <= limit else { throw .tooLarge(size: Int64(info.st_size), limit: limit) }
        return try read(descriptor, upTo: Int(info.st_size))
    }

    /// The first `count` bytes of a source (fewer if it is shorter).
    static func readHead(of source: SourceFile, count: Int) throws(SourceReadError) -> [UInt8] {
        try withOpenFile(source) { descriptor throws(SourceReadError) in try read(descriptor, upTo: count) }
    }

    /// Opens the source as `SourceFile.openForReading` does: the very file that was found, or nothing.
    private static func withOpenFile<T>(_ source: SourceFile, _ body: (Int32) throws(SourceReadError) -> T)
        throws(SourceReadError) -> T
    {
        let descriptor = try source.openForReading()
        defer { close(descriptor) }
        return try body(descriptor)
    }

    /// Reads until `count` bytes or the end of the file, retrying interrupted reads.
    private static func read(_ descriptor: Int32, upTo count: Int) throws(SourceReadError) -> [UInt8] {
        var failure: String?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            while filled < count {
                let got = Glibc.read(descriptor, buffer.baseAddress! + filled, count - filled)
                if got < 0 && errno == EINTR { continue }
                if got < 0 { failure = errnoMessage(); return }
                if got == 0 { break }
                filled += got
            }
        }
        if let failure { throw .unreadable(failure) }
        return bytes
    }
}
