import DossierCore

/// A family of formats filed byte for byte, as they are: recognised by their signatures, dated by
/// the EXIF block they carry (when they carry one), else by their own metadata (a CR3's boxes,
/// a container's `ContainerDates`), else by the file's name or time (`PhotoMetadata`'s
/// order), never turned (one whose EXIF says a turn keeps it, for viewers to apply). Those
/// browsers cannot show get a rendition beside them, upright; one whose rendition cannot be made
/// is filed all the same, and its outcome says why it has none. The images, raws, videos and
/// sounds beyond JPEG, PNG, HEIF and MP4/MOV are each one (`FiledAsItIsHandler.images`, `.raws`,
/// `.videos`, `.sounds`).
public struct FiledAsItIsHandler: PhotoFormatHandler {
    public let name: String
    public let summary: String
    public let formats: [PhotoFormat]
    /// The format of a file by its first bytes; nil when it is none of the family's.
    let recognise: @Sendable ([UInt8]) -> PhotoFormat?
    /// The EXIF block (a TIFF structure) in a file's bytes (all of them, or the first
    /// `metadataBytes` of a large one), when its format carries one.
    let exif: @Sendable (PhotoFormat, [UInt8]) -> [UInt8]?
    /// Dates the format's own metadata gives, after its EXIF's (a CR3's), from the bytes of the
    /// file searched for metadata.
    var ownDates: @Sendable (PhotoFormat, [UInt8]) -> [CaptureDate] = { _, _ in [] }
    /// The rendition of a photo of the family, when its format has one (`PhotoFormat.hasRendition`).
    var render: (@Sendable (Photo) throws -> PhotoRendition?)? = nil

    /// How much of a large file is searched for its metadata.
    static let metadataBytes = 8 << 20

    /// Its signature at the start, and not plain text after it (a log that starts `GIF89a notes`).
    public func canRead(head: [UInt8]) -> Bool {
        recognise(head) != nil && !FileTypeDescription.isPlainUTF8Text(head)
    }

    public func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        guard let format = recognise(input.head) else { return }
        try read(input, as: format, context: context, into: sink)
    }

    /// Reads the file as `format`, which its first bytes showed.
    func read(_ input: SourceInput, as format: PhotoFormat, context: PipelineContext, into sink: any ItemSink) throws {
        let (content, digest) = try WholeFileContent.read(input, context: context)
        let bytes: [UInt8]
        switch content {
        case .memory(let all): bytes = all
        case .file: bytes = WholeFileContent.prefix(content, FiledAsItIsHandler.metadataBytes)
        }
        // A raw whose first directory lies past the first bytes (a DNG written directory-last)
        // looked like a TIFF there: its directory, read now, tells it, and the raws read it.
        if format == .tiff, name != FiledAsItIsHandler.raws.name, let raw = FiledAsItIsHandler.rawFormat(head: bytes) {
            return try FiledAsItIsHandler.raws.read(input, as: raw, context: context, into: sink)
        }
        let container = ContainerDates.of(bytes, timeZone: context.timeZone)
        let metadata = PhotoMetadata(exif: exif(format, bytes), pngTime: nil,
                                     containerDates: ownDates(format, bytes) + container.dates,
                                     containerDatesThatAreNone: container.datesThatAreNone,
                                     source: input.source, timeZone: context.timeZone)
        var photo = Photo(source: input.source, format: format, content: content, sourceDigest: digest, orientation: .up,
                          width: 0, height: 0, captureDate: metadata.captureDate, exif: nil, isVerified: true,
                          warnings: metadata.warnings.filter { $0 != PhotoMetadata.unreadableExifWarning }, contentDigest: digest)
        if format.joinsItsStill {
            // A raw shot with a JPEG: the same rule as a Live Photo's movie's, its name and a time that agrees.
            let still = LivePhotoPairing(context: context).still(forMovie: input.source, identifier: nil, taken: photo.captureDate)
            photo.besideStill = still?.path
            photo.stillIsInRun = still?.inRun ?? false
        }
        var damage = CutShort.of(format, content.readingAhead)
        if damage == nil, FiledAsItIsHandler.isBareJPEGXL(input.head) {
            // Its decoder is what tells it whole; the rendition it made is the one filed.
            switch VipsCodec.decodedWhole(content, format: format.displayName, quality: FiledAsItIsHandler.renditionQuality) {
            case .whole(let rendition): photo.rendition = rendition
            case .damaged(let why): damage = FiledAsItIsHandler.bareJPEGXLDamage(why)
            case .unknown: break
            }
        }
        if let damage {
            // Still the user's bytes: filed as they are, and said.
            photo.damage = damage
            photo.warnings.append("damaged (\(damage)): filed byte for byte as it is")
        }
        try sink.accept(.photo(photo))
    }

    /// Why the file is cut short by its format's structure (`CutShort`), read where it lies; a
    /// bare JPEG XL codestream, which declares no length, by its decoder.
    public func cutShort(_ input: SourceInput) -> String? {
        guard let format = recognise(input.head) else { return nil }
        if FiledAsItIsHandler.isBareJPEGXL(input.head), input.source.size <= WholeFileContent.inMemorySize,
           let bytes = try? input.readAll().bytes,
           case .damaged(let why) = VipsCodec.decodedWhole(.memory(bytes), format: format.displayName, quality: FiledAsItIsHandler.renditionQuality) {
            return FiledAsItIsHandler.bareJPEGXLDamage(why)
        }
        return input.cutShort { CutShort.of(format, $0) }
    }

    /// A JPEG XL codestream with no container around it (`FF 0A`).
    static func isBareJPEGXL(_ head: [UInt8]) -> Bool { head.starts(with: [0xFF, 0x0A]) }

    static func bareJPEGXLDamage(_ why: String) -> String {
        "cut short or broken: its codestream does not decode to its end (\(why))"
    }

    /// The JPEG quality of the renditions libvips makes.
    static let renditionQuality = 90

    /// Filed byte for byte.
    public func upright(_ photo: Photo) -> Photo {
        photo
    }

    /// The rendition of a photo whose format has one; none for a damaged file (its damage is not
    /// made into new pixels), nor when it cannot be made: the photo is filed all the same, and
    /// its warnings say why it has none.
    public func rendition(of photo: Photo, warnings: inout [String]) throws -> PhotoRendition? {
        guard photo.format.hasRendition, let render else { return nil }
        if let damage = photo.damage {
            warnings.append("no rendition: it is damaged (\(damage))")
            return nil
        }
        do {
            return try render(photo)
        } catch {
            warnings.append("no rendition: \(error)")
            return nil
        }
    }
}

// MARK: - FiledAsItIsHandler+Images

extension FiledAsItIsHandler {
    /// WebP (messengers, Android downloads), GIF (animated ones kept whole), BMP, TIFF
    /// (scanners) and JPEG XL. WebP, TIFF and JPEG XL are dated by their EXIF. Browsers show WebP
    /// and GIF; the others get a rendition made by libvips (`VipsCodec`), upright.
    public static let images = FiledAsItIsHandler(
        name: "image",
        summary: "WebP, GIF, BMP, TIFF and JPEG XL images (recognised by their signatures), filed as they are, "
            + "with a rendition beside each TIFF, BMP and JPEG XL",
        formats: [.webp, .gif, .bmp, .tiff, .jxl],
        recognise: { head in
            if head.has("RIFF") && head.has("WEBP", at: 8) { return .webp }
            if head.has("GIF87a") || head.has("GIF89a") { return .gif }
            // `BM`, reserved bytes zero, and a known DIB header size.
            if head.has("BM"), head.count > 18, head[6..<10].allSatisfy({ $0 == 0 }),
               [12, 40, 52, 56, 108, 124].contains(Int(head[14]) | Int(head[15]) << 8) {
                return .bmp
            }
            if let tiff = TIFFStructure(Array(head.prefix(16))), tiff.firstDirectory.map({ $0 >= 8 }) == true { return .tiff }
            // A bare codestream, or the ISO container (a `JXL ` box first).
            if head.has([0xFF, 0x0A]) || head.has([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
                return .jxl
            }
            return nil
        },
        exif: { format, bytes in
            switch format {
            case .webp: return FiledAsItIsHandler.webpExif(bytes)
            case .tiff: return bytes
            case .jxl: return FiledAsItIsHandler.jxlExif(bytes)
            default: return nil
            }
        },
        render: { photo in
            try VipsCodec.rendition(of: photo.content, format: photo.format.displayName, quality: FiledAsItIsHandler.renditionQuality)
        })

    /// A WebP's `EXIF` chunk (RIFF chunks: a four-character code, a little-endian size, the data
    /// padded to an even length), without the `Exif\0\0` some writers put in front.
    static func webpExif(_ bytes: [UInt8]) -> [UInt8]? {
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            let start = offset + 8
            guard size >= 0, size <= bytes.count - start else { return nil }
            if bytes[offset..<(offset + 4)].elementsEqual("EXIF".utf8) {
                let chunk = bytes[start..<(start + size)]
                return Array(chunk.starts(with: JPEGSegments.exifPrefix) ? chunk.dropFirst(JPEGSegments.exifPrefix.count) : chunk)
            }
            offset = start + size + (size % 2)
        }
        return nil
    }

    /// A JPEG XL container's `Exif` box: a four-byte offset to the TIFF header, then the TIFF
    /// structure (ISO boxes: a big-endian size, which counts its own eight bytes, and a type).
    static func jxlExif(_ bytes: [UInt8]) -> [UInt8]? {
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8, size <= bytes.count - offset else { return nil }
            if bytes[(offset + 4)..<(offset + 8)].elementsEqual("Exif".utf8), size >= 12 {
                let skip = bytes[(offset + 8)..<(offset + 12)].reduce(0) { $0 << 8 | Int($1) }
                let start = offset + 12 + skip
                return start < offset + size ? Array(bytes[start..<(offset + size)]) : nil
            }
            offset += size
        }
        return nil
    }
}

// MARK: - FiledAsItIsHandler+Raws

extension FiledAsItIsHandler {
    /// Camera raws: DNG, Canon CR2 and CR3, Nikon NEF, Sony ARW, Olympus ORF, Panasonic RW2,
    /// Fujifilm RAF; recognised by their own signatures (CR3 by its `crx ` brand, never as a
    /// movie), dated by the EXIF they carry (a RAF's from its embedded JPEG, a CR3's from its
    /// `CMT2` box), filed under `photos/` byte for byte, with a rendition made of the preview
    /// the camera embedded, upright (`RawRendition`). One shot with a JPEG (`IMG_0001.CR2` and
    /// `IMG_0001.JPG`, taken within seconds) is filed beside it under its name, and has no
    /// rendition: the camera's JPEG is its picture.
    public static let raws = FiledAsItIsHandler(
        name: "raw",
        summary: "camera raws (DNG, CR2, CR3, NEF, ARW, ORF, RW2, RAF), recognised by content, filed as they are, "
            + "with a rendition of the camera's preview, or beside the camera's JPEG",
        formats: [.dng, .cr2, .cr3, .nef, .arw, .orf, .rw2, .raf],
        recognise: FiledAsItIsHandler.rawFormat(head:),
        exif: { format, bytes in
            switch format {
            case .raf: return FiledAsItIsHandler.rafExif(bytes)
            case .cr3: return nil
            case .orf, .rw2:
                return FiledAsItIsHandler.withTIFFMagic(bytes)
            default: return bytes
            }
        },
        ownDates: { format, bytes in format == .cr3 ? FiledAsItIsHandler.cr3Dates(bytes) : [] },
        render: RawRendition.rendition(of:))

    static func rawFormat(head: [UInt8]) -> PhotoFormat? {
        if head.has("FUJIFILMCCD-RAW") { return .raf }
        if ISOFileType(head: head)?.majorBrand == "crx " { return .cr3 }
        if hasOlympusMagic(head) { return .orf }
        if hasPanasonicMagic(head) { return .rw2 }
        guard let tiff = TIFFStructure(head) else { return nil }
        if head.has("CR", at: 8) { return .cr2 }
        guard let first = tiff.firstDirectory, let entries = tiff.entries(at: first) else { return nil }
        // DNGVersion in IFD0 makes a DNG, whatever camera made it.
        if entries.contains(where: { $0.tag == 0xC612 }) { return .dng }
        let make = entries.first { $0.tag == 0x010F }.flatMap { entry in
            tiff.valueRange(of: entry).map { String(decoding: head[$0].prefix { $0 != 0 }, as: UTF8.self).uppercased() }
        } ?? ""
        // A Nikon or Sony raw keeps its data in SubIFDs; a Nikon film scanner's TIFF has none.
        guard entries.contains(where: { $0.tag == 0x014A }) else { return nil }
        if make.hasPrefix("NIKON") { return .nef }
        if make.hasPrefix("SONY") { return .arw }
        return nil
    }

    /// A RAF's embedded JPEG (its offset and length, big-endian, at bytes 84 and 88) and that
    /// JPEG's EXIF.
    static func rafExif(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 92 else { return nil }
        let offset = bytes[84..<88].reduce(0) { $0 << 8 | Int($1) }, length = bytes[88..<92].reduce(0) { $0 << 8 | Int($1) }
        guard offset >= 92, length > 0, offset <= bytes.count, length <= bytes.count - offset else { return nil }
        return JPEGSegments.exifTIFF(in: Array(bytes[offset..<(offset + length)]))
    }

    /// Canon's `uuid` box in a CR3's `moov`, which holds its TIFF structures.
    static let canonMetadataBox: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B,
                                            0x6A, 0x48]

    /// A CR3's dates: its EXIF IFD is a TIFF structure of its own, `CMT2` in Canon's `uuid` box
    /// (IFD0 is `CMT1`), whose first directory holds DateTimeOriginal, DateTimeDigitized and
    /// their offsets, as exiftool reads them.
    static func cr3Dates(_ bytes: [UInt8]) -> [CaptureDate] {
        let reader = ISOBoxReader(bytes)
        guard let moov = try? reader.firstTopLevel("moov"), let boxes = try? reader.children(of: moov),
              let canon = boxes.first(where: {
                  // A uuid box's payload starts after its 16-byte user type.
                  $0.type == "uuid" && (try? bytes.read(at: $0.payloadStart - 16, length: 16)) == canonMetadataBox
              }),
              let inside = try? reader.children(of: canon),
              let cmt2 = inside.first(where: { $0.type == "CMT2" }), let payload = try? reader.payload(of: cmt2),
              let tiff = TIFFStructure(payload), let first = tiff.firstDirectory, let entries = tiff.entries(at: first)
        else { return [] }
        func text(_ tag: UInt16) -> String? {
            guard let entry = entries.first(where: { $0.tag == tag }), entry.type == 2, let range = tiff.valueRange(of: entry)
            else { return nil }
            return String(decoding: payload[range].prefix { $0 != 0 }, as: UTF8.self)
        }
        var dates: [CaptureDate] = []
        for (tag, offsetTag, origin) in [(UInt16(0x9003), UInt16(0x9011), CaptureDate.Origin.exifDateTimeOriginal),
                                         (0x9004, 0x9012, .exifDateTimeDigitized)] {
            guard let taken = text(tag).flatMap(LocalDateTime.init(exif:)) else { continue }
            dates.append(CaptureDate(taken, origin: origin, utcOffset: text(offsetTag).flatMap(UTCOffset.init(parsing:))))
        }
        return dates
    }

    /// Olympus's and Panasonic's raws are TIFF structures with their maker's own number where
    /// TIFF has 42.
    static func hasOlympusMagic(_ head: [UInt8]) -> Bool { head.has("IIRO") || head.has("IIRS") || head.has("MMOR") }
    static func hasPanasonicMagic(_ head: [UInt8]) -> Bool { head.has([0x49, 0x49, 0x55, 0x00]) }

    /// The bytes with TIFF's 42 where an Olympus or Panasonic raw has its own number (the same
    /// directories follow); other bytes as they are. Nil when too short to hold a header.
    static func withTIFFMagic(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count > 8 else { return nil }
        guard hasOlympusMagic(bytes) || hasPanasonicMagic(bytes) else { return bytes }
        return Array(bytes[0..<2]) + (bytes[0] == 0x49 ? [0x2A, 0x00] : [0x00, 0x2A]) + Array(bytes[4...])
    }
}

// MARK: - FiledAsItIsHandler+Sounds

extension FiledAsItIsHandler {
    /// Sound: MP3, WAV, AAC, Ogg (Opus, Vorbis) and FLAC, filed under `audio/` byte for byte,
    /// dated by their names or times. (M4A and voice memos come through `MovieHandler`, which
    /// reads their dates.)
    public static let sounds = FiledAsItIsHandler(
        name: "audio",
        summary: "MP3, WAV, AAC, Ogg (Opus, Vorbis) and FLAC sound, recognised by content, filed as it is under audio/",
        formats: [.mp3, .wav, .aac, .ogg, .flac],
        recognise: { head in
            if head.has("RIFF") && head.has("WAVE", at: 8) { return .wav }
            if head.has("ID3"), head.count > 3, (2...4).contains(head[3]) { return .mp3 }
            // An MPEG audio frame's sync (11 bits set), layer III; ADTS (AAC) has layer 0.
            if head.count > 2, head[0] == 0xFF, head[1] & 0xE0 == 0xE0 {
                if head[1] & 0x06 == 0x02 { return .mp3 }
                if head[1] & 0xF6 == 0xF0 { return .aac }
            }
            if head.has("OggS"), head.count > 4, head[4] == 0 { return .ogg }
            if head.has("fLaC") { return .flac }
            return nil
        },
        exif: { _, _ in nil })
}

// MARK: - FiledAsItIsHandler+Videos

extension FiledAsItIsHandler {
    /// Camcorders' and older cameras' videos: AVI, Matroska and WebM, MPEG transport streams
    /// (AVCHD's MTS, M2TS, dated by their `MDPM`), filed under `videos/` byte for byte.
    public static let videos = FiledAsItIsHandler(
        name: "video-other",
        summary: "AVI, Matroska/WebM and MPEG transport stream (MTS, M2TS) videos, recognised by content, filed as they are",
        formats: [.avi, .mkv, .webm, .mts],
        recognise: { head in
            if head.has("RIFF") && head.has("AVI ", at: 8) { return .avi }
            if head.has([0x1A, 0x45, 0xDF, 0xA3]) {
                // The EBML header's DocType names it: `webm` or `matroska`.
                return head.prefix(64).windows(ofCount: 4).contains { $0.elementsEqual("webm".utf8) } ? .webm : .mkv
            }
            // 188-byte packets each starting 0x47, or 192 with a 4-byte time code (M2TS).
            if AVCHDDates.packetLayout(head) != nil { return .mts }
            return nil
        },
        exif: { _, _ in nil })
}

private extension ArraySlice where Element == UInt8 {
    /// Every run of `count` bytes, in order.
    func windows(ofCount count: Int) -> [ArraySlice<UInt8>] {
        guard self.count >= count else { return [] }
        return (startIndex...(endIndex - count)).map { self[$0..<($0 + count)] }
    }
}

// MARK: - Array+Signature

extension Array where Element == UInt8 {
    /// Whether these bytes hold `signature` at `offset` (a format's magic number).
    func has(_ signature: [UInt8], at offset: Int = 0) -> Bool {
        count >= offset + signature.count && self[offset..<(offset + signature.count)].elementsEqual(signature)
    }

    /// Whether these bytes hold `signature`'s ASCII at `offset` (`RIFF`, `WEBP`).
    func has(_ signature: String, at offset: Int = 0) -> Bool {
        has(Array(signature.utf8), at: offset)
    }
}
