import Foundation

/// A file's bytes, to show a skipped source was left untouched.
enum SafetyBytes {
    static func of(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }
}
