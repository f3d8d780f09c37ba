import Foundation

/// The encodings Dossier reads text in: what Korean notepad files have been saved as for years.
public enum TextEncoding: String, Sendable, CaseIterable {
    case utf8 = "UTF-8"
    case utf8WithBOM = "UTF-8 with BOM"
    case utf16LittleEndian = "UTF-16 LE"
    case utf16BigEndian = "UTF-16 BE"
    /// Windows code page 949, the superset of EUC-KR (it has 똠, which EUC-KR lacks).
    case cp949 = "CP949"

    /// Foundation's CP949 (kCFStringEncodingDOSKorean).
    static let foundationCP949 = String.Encoding(rawValue: 0x8000_0422)

    var byteOrderMark: [UInt8] {
        switch self {
        case .utf8WithBOM: return [0xEF, 0xBB, 0xBF]
        case .utf16LittleEndian: return [0xFF, 0xFE]
        case .utf16BigEndian: return [0xFE, 0xFF]
        case .utf8, .cp949: return []
        }
    }

    /// Bytes per code unit, for finding line ends.
    var unitSize: Int { self == .utf16LittleEndian || self == .utf16BigEndian ? 2 : 1 }
}
