import Foundation
import CImageShims

extension dossier_status {
    /// The library's message, as a Swift string.
    var messageText: String { Self.text(of: message).trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The first tolerated warning, if any.
    var warningText: String? { warning_count > 0 ? Self.text(of: warning) : nil }

    /// The error for a failed call into the shims.
    func error(format: String) -> PhotoError {
        switch Int(code) {
        case Int(DOSSIER_ERR_LIMIT): return .tooLarge(format: format, message: messageText)
        case Int(DOSSIER_ERR_ENCODE), Int(DOSSIER_ERR_ARGUMENT): return .encodingFailed(format: format, message: messageText)
        default: return .corrupt(format: format, message: messageText)
        }
    }

    private static func text<T>(of tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

extension dossier_buffer {
    /// Copies the C buffer into Swift memory and frees it.
    mutating func takeBytes() -> [UInt8] {
        defer { dossier_buffer_free(&self) }
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
}
