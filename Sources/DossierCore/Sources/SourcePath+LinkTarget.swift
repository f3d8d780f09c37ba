import Glibc

extension SourcePath {
    /// What a symbolic link says it points at (`readlink`), as a path; nil when `path` is no link.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = withFileSystemPath(path) { readlink($0, &buffer, buffer.count - 1) }
        guard count >= 0 else { return nil }
        return string(fromFileSystem: buffer[0..<count].map { UInt8(bitPattern: $0) })
    }

    /// The path with every link, `.` and `..` resolved (`realpath`); nil with `errno` set when it
    /// leads nowhere.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = withFileSystemPath(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return string(fromCString: resolved)
    }
}
