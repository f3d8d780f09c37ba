import Foundation

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
