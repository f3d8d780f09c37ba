import Foundation

extension SourceFile {
    public init(path: String, info: stat, namedFolder: String? = nil) {
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        self.init(path: path, size: Int64(info.st_size), modificationTime: nanoseconds, namedFolder: namedFolder)
    }

    /// Same size and modification time as when it was read.
    func isUnchanged(since earlier: SourceFile) -> Bool {
        size == earlier.size && modificationTime == earlier.modificationTime
    }
}
