extension UnsafeBufferPointer<UInt8> {
    /// Valid UTF-8 text without its leading and trailing white space (Unicode White_Space, as
    /// `Unicode.Scalar.isWhitespace` lists it), as a slice of the same memory: CSV cells are
    /// trimmed by the million, most of them with nothing to trim, and none needs a copy for it.
    var trimmedWhitespace: UnsafeBufferPointer<UInt8> {
        var start = startIndex, end = endIndex
        while start < end, let length = whitespaceLength(startingAt: start) { start += length }
        while start < end, let length = whitespaceLength(endingAt: end) { end -= length }
        return UnsafeBufferPointer(rebasing: self[start..<end])
    }

    /// The byte length of the scalar at `index` if it is white space.
    private func whitespaceLength(startingAt index: Int) -> Int? {
        let lead = self[index]
        if lead < 0x80 { return Unicode.Scalar(lead).isWhitespace ? 1 : nil }
        // White space past ASCII is two bytes (U+0085, U+00A0) or three (U+1680 to U+3000).
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard length < 4, index + length <= endIndex else { return nil }
        return scalar(at: index, length: length).isWhitespace ? length : nil
    }

    /// The byte length of the scalar that ends just before `end` if it is white space.
    private func whitespaceLength(endingAt end: Int) -> Int? {
        let last = self[end - 1]
        if last < 0x80 { return Unicode.Scalar(last).isWhitespace ? 1 : nil }
        var start = end - 1
        while start > startIndex, self[start] & 0xC0 == 0x80, end - start < 4 { start -= 1 }
        let length = end - start
        guard (2...3).contains(length) else { return nil }
        return scalar(at: start, length: length).isWhitespace ? length : nil
    }

    /// The two- or three-byte scalar at `index`.
    private func scalar(at index: Int, length: Int) -> Unicode.Scalar {
        let value = length == 2
            ? UInt32(self[index] & 0x1F) << 6 | UInt32(self[index + 1] & 0x3F)
            : UInt32(self[index] & 0x0F) << 12 | UInt32(self[index + 1] & 0x3F) << 6 | UInt32(self[index + 2] & 0x3F)
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }
}
