import Foundation

/// Who holds a lock file: the holder writes `pid N` into it once it has the `flock`, and one that
/// finds the lock taken reads that back to name the holder (the library's lock, the daemon's
/// inbox lock).
public enum LockHolder {
    /// Writes this process's pid into the locked file, in place of what was there.
    public static func record(in descriptor: Int32) {
        let pid = Array("pid \(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// The holder as it wrote itself (`pid 4242`), or "process unknown".
    public static func describe(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "process unknown" : trimmed
    }
}
