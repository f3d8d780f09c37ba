import DossierCore

/// How a HEIF is filed upright for good without a byte of its pictures changing.
///
/// Its container's transforms (irot, imir, clap) are what every conforming viewer applies, and
/// they stay. iPhones and Samsung phones also write the same turn as EXIF Orientation (6 with
/// irot 270), which a reader that honours both applies twice (PhotoPrism #1064, libheif #227).
/// So when the container turns or mirrors the picture, the EXIF tag is set to 1 where it lies:
/// the same two bytes, so every offset in the EXIF block and in the file stays right. When the
/// container does not turn it, the EXIF tag is the only record of the turn and is kept (the
/// importer reported it; the rendition is turned by it).
enum HEIFOrientation {
    static func resettingExifTag(of photo: Photo) throws -> Photo {
        var result = photo
        guard let tiff = photo.exif, let field = ExifOrientationField(tiff: tiff), field.value != 1,
              let structure = try? HEIFStructure(reading: photo.content.randomAccess), structure.turnsOrMirrors,
              let extents = structure.exifExtents,
              let item = try? itemBytes(photo.content.randomAccess, extents: extents), let exif = HEIFExif(item: item),
              exif.tiff == tiff
        else { return result }
        let position = exif.tiffStart + field.offset
        guard let first = HEIFExif.fileOffset(of: position, in: extents),
              let second = HEIFExif.fileOffset(of: position + 1, in: extents)
        else { return result }
        let upright = field.uprightBytes
        switch photo.content {
        case .memory(var bytes):
            bytes[Int(first)] = upright[0]
            bytes[Int(second)] = upright[1]
            result.content = .memory(bytes)
        case .file(let file):
            let once = try file.replacing(first..<first + 1, with: [upright[0]])
            result.content = .file(try once.replacing(second..<second + 1, with: [upright[1]]))
        }
        var newTiff = tiff
        newTiff.replaceSubrange(field.offset..<field.offset + 2, with: upright)
        result.exif = newTiff
        return result
    }

    /// The EXIF item's bytes, its extents read in order (a few KiB).
    private static func itemBytes(_ bytes: any RandomAccessBytes, extents: [Range<Int64>]) throws(ContainerError) -> [UInt8] {
        var item: [UInt8] = []
        for extent in extents {
            guard extent.count <= 1 << 20 else { throw ContainerError.tooLarge(type: "Exif", size: Int64(extent.count)) }
            item += try bytes.read(at: extent.lowerBound, length: extent.count)
        }
        return item
    }
}
