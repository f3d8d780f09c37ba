import DossierCore

/// HEIF photos (HEIC from iPhones and Android phones, AVIF). Read: libheif opens the file and
/// reads its primary image's size as displayed, its EXIF item and its profile; nothing is decoded
/// here, so a duplicate is recognised before any pixel work. The container's transforms (irot,
/// imir, clap) are what turns a HEIF upright; the EXIF Orientation inside is informational. It is
/// filed as it is (`HEIFOrientation`), with a rendition beside it (`HEIFRendition`).
public struct HEIFHandler: PhotoFormatHandler {
    public let name = "heif"
    public let summary = "HEIC, HEIF and AVIF photos (recognised by their 'ftyp' brands); EXIF from the Exif item"
    public let formats: [PhotoFormat] = [.heic, .avif]
    let largePhoto: LargePhoto

    public init(largePhoto: LargePhoto = .standard) {
        self.largePhoto = largePhoto
    }

    public func canRead(head: [UInt8]) -> Bool {
        ISOFileType(head: head)?.isHEIF ?? false
    }

    public func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        let (content, digest, inspection) = try largePhoto.read(input, context: context,
                                                                describe: { try HEIFCodec.inspect($0) },
                                                                pixels: { $0.width * $0.height })
        let exif = inspection.exifItem.flatMap(HEIFExif.init(item:))
        let structure = try? HEIFStructure(reading: content.randomAccess)
        let xmp = structure?.xmpExtents.flatMap { HEIFStructure.xmpPacket(in: content.randomAccess, at: $0) }
        let metadata = PhotoMetadata(exif: exif?.tiff, xmp: xmp, pngTime: nil, source: input.source, timeZone: context.timeZone)
        var warnings = metadata.warnings
        if inspection.exifItem != nil && exif == nil {
            warnings.append(PhotoMetadata.unreadableExifWarning)
        }
        // Viewers turn a HEIF by its container; an EXIF turn it does not carry was written by a
        // tool that relied on EXIF. Only then does the EXIF tag turn the rendition.
        var orientation = Orientation.up
        if metadata.orientation != .up {
            if structure.map({ !$0.turnsOrMirrors }) ?? false {
                orientation = metadata.orientation
                warnings.append("EXIF Orientation \(metadata.orientation.rawValue) but no turn in the HEIF container "
                    + "(irot/imir): the rendition is turned by the EXIF tag; the HEIF is filed as it is")
            }
        }
        // AV1 pictures are filed as .avif; HEVC ones (and any other codec libheif reads) as .heic.
        let brands = ISOFileType(head: input.head)?.brands ?? []
        let format: PhotoFormat = brands.contains("avif") && !brands.contains("heic") ? .avif : .heic
        var photo = Photo(source: input.source, format: format, content: content, sourceDigest: digest,
                          orientation: orientation, width: inspection.width, height: inspection.height,
                          captureDate: metadata.captureDate, exif: exif?.tiff, warnings: warnings, contentDigest: digest)
        photo.isMotionPhoto = MotionPhotoMarkers.isMotionPhoto(content, format: format)
        photo.contentIdentifier = photo.exif.flatMap(AppleMakerNote.contentIdentifier(inExif:))
        if let damage = CutShort.isoBoxes(content.readingAhead, index: "meta") {
            // libheif reads its picture (its rendition proves it), but a box runs past the end.
            photo.damage = damage
            photo.warnings.append("damaged (\(damage)): filed byte for byte as it is")
        }
        try sink.accept(.photo(photo))
    }

    /// Whether its boxes run whole to the last, its `meta` among them (`CutShort.isoBoxes`).
    public func cutShort(_ input: SourceInput) -> String? {
        input.cutShort { CutShort.isoBoxes($0, index: "meta") }
    }

    /// A damaged one keeps every byte, its EXIF tag too.
    public func upright(_ photo: Photo) throws -> Photo {
        guard photo.damage == nil else { return photo }
        return try HEIFOrientation.resettingExifTag(of: photo)
    }

    public func rendition(of photo: Photo, warnings: inout [String]) throws -> PhotoRendition? {
        try HEIFRendition.rendition(of: photo, warnings: &warnings)
    }
}
