import DossierCore

/// The sidecars phones and editors leave beside a photo, filed byte for byte beside it.
extension PhotoFormat {
    /// An iPhone's record of its edits to a photo (`IMG_1234.AAE`, a property list).
    public static let appleAdjustments = PhotoFormat(fileExtension: "aae", displayName: "iPhone edits (AAE)", isSidecar: true)
    /// An XMP sidecar (`IMG_1234.xmp`, `IMG_1234.JPG.xmp`): ratings, captions, a raw's edits.
    public static let xmpSidecar = PhotoFormat(fileExtension: "xmp", displayName: "XMP sidecar", isSidecar: true)
}
