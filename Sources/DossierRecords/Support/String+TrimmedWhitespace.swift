extension String {
    /// The text without leading and trailing white space (Unicode White_Space: spaces, tabs,
    /// line breaks, no-break and ideographic spaces). Done in Swift rather than through
    /// Foundation's `trimmingCharacters(in:)`, which bridges through NSString: CSV cells are
    /// trimmed by the million.
    var trimmedWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return self }
        if !first.isWhitespace && !last.isWhitespace { return self }
        guard let start = scalars.firstIndex(where: { !$0.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}
