extension Unicode.Scalar {
    /// Unicode's White_Space property, from its list (Unicode 15 PropList.txt): asked of the ends of
    /// every CSV cell, where the general property lookup weighed on the whole import
    /// (docs/performance.md, "Unicode.Scalar.isWhitespace").
    var isWhitespace: Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }
}
