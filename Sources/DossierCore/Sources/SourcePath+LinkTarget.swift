import Glibc

extension SourcePath {
    /// What a symbolic link says it points at (`readlink`), as a path; nil when `path` is no link.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = withFileSystemPath(path) { readlink($0, &buffer, buffer.count - 1) }
        guard count >= 0 else { return nil }
        return string(fromFileSystem: buffer[0..<count].map { UInt8(bitPattern: $0) })
    }
}
