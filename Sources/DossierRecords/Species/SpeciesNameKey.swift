import Foundation

/// The form names are compared in: keepers write "Leopard Gecko", "leopard-gecko" and
/// "레오파드게코" for the same animal, and text from macOS file names or old apps may come in
/// NFD. So: NFC, lower case, and no white space, hyphens, dashes or underscores.
enum SpeciesNameKey {
    static func key(_ text: String) -> String {
        var key = String.UnicodeScalarView()
        for scalar in text.precomposedStringWithCanonicalMapping.lowercased().unicodeScalars
        where !ignored(scalar) {
            key.append(scalar)
        }
        return String(key)
    }

    /// `text` without white space at either end; nil when nothing is left.
    static func trimmed(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmedWhitespace
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func ignored(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isWhitespace { return true }
        switch scalar.value {
        case 0x2D, 0x5F: return true              // hyphen-minus, underscore
        case 0x2010...0x2015, 0x2212, 0xFF0D: return true // hyphens, dashes, minus, full-width hyphen
        default: return false
        }
    }
}
