import Foundation

extension SourceFile {
    init(path: String, info: stat) {
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        self.init(path: path, size: Int64(info.st_size), modificationTime: nanoseconds)
    }
}
