/// Whether a photo browsers cannot show (HEIF, TIFF, BMP, JPEG XL, raws) is filed with a
/// rendition beside it (`--renditions`).
public enum PhotoRenditions: String, Sendable, CaseIterable {
    /// A JPEG (a PNG for pictures with alpha), upright as displayed: for browsers and every
    /// program that cannot read HEIF.
    case jpeg
    /// The photo alone.
    case none
}
