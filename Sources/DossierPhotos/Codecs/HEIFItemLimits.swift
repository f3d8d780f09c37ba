import CImageShims
import DossierCore

/// What libheif may allocate for a HEIF file's items, checked before libheif opens the file.
///
/// libheif (1.15) reads the bytes of every item that is not a picture (EXIF, XMP, any type it does
/// not know) whole as it opens a file, and a picture item's whole as it decodes it. How many bytes,
/// the file's `iloc` says: up to 32 extents an item, each anywhere in the file, so a small file
/// can claim the same bytes over and over, up to 512 MiB an item (libheif's own limit) for as many
/// items as it lists. A real file stores each item's bytes once, its metadata in a few KiB.
enum HEIFItemLimits {
    /// The item types libheif 1.15 reads as pictures, when it decodes them; it reads every other
    /// item as metadata when it opens the file. (Later versions read more types as pictures: here
    /// they count as metadata, which is stricter, never looser.)
    static let pictureTypes: Set<String> = ["hvc1", "av01", "vvc1", "grid", "iovl", "iden"]

    /// Refuses a file whose metadata items claim more than DOSSIER_MAX_METADATA_SIZE together, or
    /// with a picture item that claims more bytes than the file holds. A file whose boxes cannot be
    /// followed is left to libheif, which refuses it in its own words.
    static func check(_ content: PhotoContent) throws(PhotoError) {
        let bytes = content.randomAccess
        guard let sizes = try? HEIFItemSizes(reading: bytes, pictureTypes: pictureTypes) else { return }
        if sizes.metadataBytes > Int64(DOSSIER_MAX_METADATA_SIZE) {
            throw .tooLarge(format: HEIFCodec.formatName,
                            message: "its metadata items claim \(sizes.metadataBytes) bytes; Dossier reads at most "
                                + "\(DOSSIER_MAX_METADATA_SIZE) bytes of a photo's metadata")
        }
        if let picture = sizes.largestPicture, picture.bytes > bytes.byteCount {
            throw .corrupt(format: HEIFCodec.formatName,
                           message: "item \(picture.id) claims \(picture.bytes) bytes, more than the file's "
                               + "\(bytes.byteCount): its extents repeat the same bytes")
        }
    }
}
