extension String {
    /// The text without leading and trailing white space (Unicode White_Space: spaces, tabs,
    /// line breaks, no-break and ideographic spaces). Done in Swift rather than through
    /// Foundation's `trimmingCharacters(in:)`, which bridges through NSString, and on the UTF-8
    /// bytes, the way CSV cells are trimmed.
    var trimmedWhitespace: String {
        var text = self
        return text.withUTF8 { bytes in
            let trimmed = bytes.trimmedWhitespace
            return trimmed.count == bytes.count ? self : String(decoding: trimmed, as: UTF8.self)
        }
    }
}
