import DossierCore

/// Everything the photos plugin knows of one format: how to recognise it by its first bytes and
/// read its facts (the `Importer` part), how to make a photo of it upright for good, and what to
/// file beside it. Adding a format is a handler in a new file, its `PhotoFormat` values, and one
/// line in the list a plugin registers (`Plugin.photos`, or `Plugin.photoFormats` for a plugin of
/// its own); Core files it by those values alone.
public protocol PhotoFormatHandler: Importer {
    /// The formats the photos it reads are filed in (HEIF: HEIC and AVIF). Each photo it hands
    /// over carries one of them, which is how the transforms find their way back to it.
    var formats: [PhotoFormat] { get }

    /// The photo as it is filed: upright without help from a tag, and proven whole where the
    /// format allows. A format filed byte for byte (a movie) gives it back as it is.
    func upright(_ photo: Photo) throws -> Photo

    /// The picture filed beside a photo browsers cannot show (`PhotoFormat.hasRendition`),
    /// upright as displayed, for programs that cannot read the photo; nil when none is filed.
    /// Asked after `upright`.
    func rendition(of photo: Photo, warnings: inout [String]) throws -> PhotoRendition?
}

extension PhotoFormatHandler {
    /// A photo is filed itself; there is no text to keep beside it.
    public var keepsSource: Bool { false }

    public func rendition(of photo: Photo, warnings: inout [String]) throws -> PhotoRendition? { nil }
}
