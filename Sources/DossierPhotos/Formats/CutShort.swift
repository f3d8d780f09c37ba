import DossierCore
import Glibc

/// Whether a file reads whole by its format's own structure, and why not: a JPEG to its end
/// marker, a PNG to its `IEND`, a box-structured file (HEIF, MP4, MOV, CR3, a JPEG XL container)
/// to its last box, a TIFF's directories and image data, a RIFF file to the size its header
/// gives, a Matroska file to its segment's end, MPEG audio, ADTS and Ogg to their last frame or
/// page. Each reads only what its structure needs (a JPEG's entropy-coded data is scanned for
/// its markers, never decoded), through `RandomAccessBytes`, so a file of any size is looked at
/// where it lies. A format whose structure cannot tell (a bare JPEG XL codestream, FLAC's
/// frames) reads whole as far as it can be told.
///
/// The import marks a file cut short as damaged (`FiledAsItIsHandler`; JPEG and PNG by their
/// decoders); the daemon asks the same before it reads a file (`Importer.cutShort`), and leaves
/// one cut short in its inbox while it may still be written.
enum CutShort {
    /// Why a file of `format` (one `FiledAsItIsHandler` files) is cut short; nil when it reads whole.
    static func of(_ format: PhotoFormat, _ bytes: any RandomAccessBytes) -> String? {
        switch format {
        case .tiff, .dng, .cr2, .nef, .arw, .orf, .rw2: return tiff(bytes)
        case .cr3: return isoBoxes(bytes, index: "moov")
        case .raf: return raf(bytes)
        case .webp, .avi, .wav: return riff(bytes)
        case .gif: return gif(bytes)
        case .bmp: return bmp(bytes)
        case .jxl: return jpegXL(bytes)
        case .mkv, .webm: return matroska(bytes)
        case .mts: return transportStream(bytes)
        case .mp3, .aac: return mpegAudio(bytes)
        case .ogg: return ogg(bytes)
        case .flac: return flac(bytes)
        default: return nil
        }
    }

    private static func ends(_ what: String, _ bytes: any RandomAccessBytes) -> String {
        "cut short: it ends before \(what) (the file has \(bytes.byteCount) bytes)"
    }

    private static func runsPast(_ what: String, at offset: Int64, _ bytes: any RandomAccessBytes) -> String {
        "cut short: \(what) at byte \(offset) runs past its end (the file has \(bytes.byteCount) bytes)"
    }

    // MARK: JPEG

    /// Segment by segment to the end marker (FF D9); after each scan, its entropy-coded data is
    /// scanned for the next marker (an FF not followed by 00, FF or a restart marker). A file
    /// that ends with FF D9 once its first scan has begun is whole without its scan being read:
    /// entropy-coded data holds no FF D9 but its end.
    static func jpeg(_ bytes: any RandomAccessBytes) -> String? {
        guard bytes.bytes(at: 0, 2) == [0xFF, 0xD8] else { return nil }
        var position: Int64 = 2
        while true {
            guard let pair = bytes.bytes(at: position, 2) else { return ends("its end marker (FF D9)", bytes) }
            guard pair[0] == 0xFF else {
                // Bytes between segments (a writer's padding): on to the next marker.
                guard let next = nextMarker(in: bytes, from: position) else { return ends("its end marker (FF D9)", bytes) }
                position = next
                continue
            }
            switch pair[1] {
            case 0xD9: return nil
            case 0xFF:
                position += 1
                continue
            case 0x01, 0xD0...0xD8:
                position += 2
                continue
            default: break
            }
            guard let length = bytes.bytes(at: position + 2, 2) else { return ends("its end marker (FF D9)", bytes) }
            let end = position + 2 + Int64(UInt16(bigEndianBytes: length))
            guard end <= bytes.byteCount else {
                return runsPast("its segment FF \(String(pair[1], radix: 16, uppercase: true))", at: position, bytes)
            }
            position = end
            if pair[1] == 0xDA {
                if bytes.bytes(at: bytes.byteCount - 2, 2) == [0xFF, 0xD9], bytes.byteCount - 2 >= position { return nil }
                guard let next = nextMarker(in: bytes, from: position) else { return ends("its end marker (FF D9)", bytes) }
                position = next
            }
        }
    }

    /// Where the next marker in entropy-coded data starts, read 64 KiB at a time; nil at the end.
    private static func nextMarker(in bytes: any RandomAccessBytes, from start: Int64) -> Int64? {
        var position = start
        while position < bytes.byteCount - 1 {
            let count = Int(min(65_536, bytes.byteCount - position))
            guard let chunk = bytes.bytes(at: position, count) else { return nil }
            let found = chunk.withUnsafeBufferPointer { buffer -> Int? in
                guard let base = buffer.baseAddress else { return nil }
                var index = 0
                // An FF and the byte after it, both in the chunk.
                while index < buffer.count - 1, let hit = memchr(base + index, 0xFF, buffer.count - 1 - index) {
                    let mark = base.distance(to: UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)))
                    let next = buffer[mark + 1]
                    if next != 0x00, next != 0xFF, !(0xD0...0xD7).contains(next) { return mark }
                    index = mark + 1
                }
                return nil
            }
            if let found { return position + Int64(found) }
            // The chunk's last byte is looked at again with the byte after it.
            position += Int64(count - 1)
        }
        return nil
    }

    // MARK: PNG

    /// Chunk by chunk (a length, a type, the data, a CRC) to `IEND`; one whose last bytes are
    /// an `IEND` chunk is whole without its chunks being walked.
    static func png(_ bytes: any RandomAccessBytes) -> String? {
        if bytes.bytes(at: bytes.byteCount - 12, 12) == [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82] { return nil }
        var position: Int64 = 8
        while true {
            guard let header = bytes.bytes(at: position, 8) else { return ends("its IEND chunk", bytes) }
            let end = position + 12 + Int64(UInt32(bigEndianBytes: header[0..<4]))
            let type = ISOBoxReader.fourCC(header[4..<8])
            guard end <= bytes.byteCount else { return runsPast("its '\(type)' chunk", at: position, bytes) }
            if type == "IEND" { return nil }
            position = end
        }
    }

    // MARK: ISO boxes

    /// Box by box to the last (data a phone appends after it aside), and the box that indexes
    /// the rest there: a HEIF's `meta`, a movie's `moov`, which a recording writes last.
    static func isoBoxes(_ bytes: any RandomAccessBytes, index: String) -> String? {
        do {
            let boxes = try ISOBoxReader(bytes).topLevelBeforeTrailer()
            // Fewer bytes after the last box than a box's header: a header cut short, no trailer.
            if let end = boxes.last?.end, end < bytes.byteCount, bytes.byteCount - end < 8 {
                return runsPast("the box", at: end, bytes)
            }
            guard boxes.contains(where: { $0.type == index }) else {
                return "cut short: it has no '\(index)' box, which indexes the rest (the file has \(bytes.byteCount) bytes)"
            }
            return nil
        } catch .truncated(let offset) {
            return runsPast("the box", at: offset, bytes)
        } catch {
            // Malformed, not short: the reader says what is wrong with it.
            return nil
        }
    }

    // MARK: TIFF

    /// Every directory (IFD0, the ones it chains to, SubIFDs) and the image data its strips,
    /// tiles and embedded JPEG lie in, within the file. BigTIFF is not looked into.
    static func tiff(_ bytes: any RandomAccessBytes) -> String? {
        guard let header = bytes.bytes(at: 0, 8), header[0] == header[1], header[0] == 0x49 || header[0] == 0x4D else { return nil }
        let little = header[0] == 0x49
        func unsigned(_ slice: ArraySlice<UInt8>) -> Int64 {
            (little ? slice.reversed() : Array(slice)).reduce(0) { $0 << 8 | Int64($1) }
        }
        guard unsigned(header[2..<4]) != 43 else { return nil }
        var pending = [unsigned(header[4..<8])]
        var seen: Set<Int64> = []
        var end: Int64 = 0
        while let directory = pending.popLast(), seen.count < 64 {
            guard directory >= 8, seen.insert(directory).inserted else { continue }
            guard let countBytes = bytes.bytes(at: directory, 2) else { return ends("its directory at byte \(directory)", bytes) }
            let count = Int(unsigned(countBytes[0..<2]))
            guard let table = bytes.bytes(at: directory, 2 + count * 12 + 4) else {
                return runsPast("its directory", at: directory, bytes)
            }
            /// An entry's values of type SHORT or LONG, inline or where its offset says.
            func values(_ tag: Int64) -> [Int64]? {
                guard let entry = (0..<count).lazy.map({ 2 + $0 * 12 }).first(where: { unsigned(table[$0..<($0 + 2)]) == tag }) else {
                    return []
                }
                let type = unsigned(table[(entry + 2)..<(entry + 4)]), number = unsigned(table[(entry + 4)..<(entry + 8)])
                guard type == 3 || type == 4 || type == 13, number <= 1 << 20 else { return [] }
                let unit = type == 3 ? 2 : 4
                let length = Int(number) * unit
                let data: [UInt8]
                if length <= 4 {
                    data = Array(table[(entry + 8)..<(entry + 8 + length)])
                } else {
                    guard let found = bytes.bytes(at: unsigned(table[(entry + 8)..<(entry + 12)]), length) else { return nil }
                    data = found
                }
                return stride(from: 0, to: length, by: unit).map { unsigned(data[$0..<($0 + unit)]) }
            }
            for (offsets, counts) in [(Int64(273), Int64(279)), (324, 325), (513, 514)] {
                guard let starts = values(offsets), let lengths = values(counts) else {
                    return runsPast("the values of its directory", at: directory, bytes)
                }
                for (start, length) in zip(starts, lengths) where length > 0 { end = max(end, start + length) }
            }
            guard let subDirectories = values(330) else { return runsPast("the values of its directory", at: directory, bytes) }
            pending += subDirectories
            let next = unsigned(table[(2 + count * 12)..<(2 + count * 12 + 4)])
            if next > 0 { pending.append(next) }
        }
        return end > bytes.byteCount ? "cut short: its image data runs to byte \(end), the file has \(bytes.byteCount)" : nil
    }

    /// A RAF's header names where its embedded JPEG, its CFA header and its CFA data lie
    /// (offset and length pairs, big-endian, from byte 84); the last two only when the JPEG
    /// starts past them (a header that holds them).
    static func raf(_ bytes: any RandomAccessBytes) -> String? {
        guard let header = bytes.bytes(at: 84, 24) else { return ends("its header", bytes) }
        let holdsAllThree = UInt32(bigEndianBytes: header[0..<4]) >= 108
        for pair in stride(from: 0, to: holdsAllThree ? 24 : 8, by: 8) {
            let offset = Int64(UInt32(bigEndianBytes: header[pair..<(pair + 4)]))
            let length = Int64(UInt32(bigEndianBytes: header[(pair + 4)..<(pair + 8)]))
            if length > 0, offset + length > bytes.byteCount {
                return "cut short: its data runs to byte \(offset + length), the file has \(bytes.byteCount)"
            }
        }
        return nil
    }

    // MARK: RIFF, GIF, BMP

    /// WebP, AVI, WAV: the size the RIFF header gives, and at least one chunk.
    static func riff(_ bytes: any RandomAccessBytes) -> String? {
        guard let header = bytes.bytes(at: 0, 12) else { return nil }
        let declared = header[4..<8].reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) } + 8
        if declared > bytes.byteCount { return "cut short: its RIFF header says \(declared) bytes, the file has \(bytes.byteCount)" }
        if bytes.byteCount <= 12 { return "it holds no data, only its RIFF header" }
        return nil
    }

    /// A GIF ends with its trailer (3B).
    static func gif(_ bytes: any RandomAccessBytes) -> String? {
        bytes.bytes(at: bytes.byteCount - 1, 1) == [0x3B] ? nil : "cut short: it does not end with a GIF trailer"
    }

    /// Its pixels, from the offset its file header gives: rows padded to four bytes for an
    /// uncompressed bitmap, else the image size its info header gives, else the file size.
    static func bmp(_ bytes: any RandomAccessBytes) -> String? {
        guard let header = bytes.bytes(at: 0, 54) ?? bytes.bytes(at: 0, 26) else { return ends("its header", bytes) }
        func little(_ range: Range<Int>) -> Int64 { header[range].reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) } }
        let pixels = little(10..<14)
        let core = little(14..<18) == 12
        guard core || header.count >= 54 else { return ends("its header", bytes) }
        let width = core ? little(18..<20) : Int64(Int32(truncatingIfNeeded: little(18..<22)))
        let height = abs(core ? little(20..<22) : Int64(Int32(truncatingIfNeeded: little(22..<26))))
        let bitsPerPixel = core ? little(24..<26) : little(28..<30)
        let compression = core ? 0 : little(30..<34)
        let imageSize = core ? 0 : little(34..<38)
        let end: Int64
        if [0, 3, 6].contains(compression), width > 0, [1, 2, 4, 8, 16, 24, 32].contains(bitsPerPixel) {
            // Sizes a header claims are 32 bits each: their product may pass what an Int64 holds.
            let row = (width * bitsPerPixel + 31) / 32 * 4
            let (size, overflow) = row.multipliedReportingOverflow(by: height)
            end = overflow ? .max : pixels + size
        } else if imageSize > 0 {
            end = pixels + imageSize
        } else {
            end = little(2..<6)
        }
        return end > bytes.byteCount ? "cut short: its pixels run to byte \(end), the file has \(bytes.byteCount)" : nil
    }

    // MARK: Matroska

    /// EBML elements: the header, then the segment, to the end its size gives; a segment of
    /// unknown size (a live recording) child by child, as far as their sizes are known.
    static func matroska(_ bytes: any RandomAccessBytes) -> String? {
        var position: Int64 = 0
        var inSegment = false
        var elements = 0
        while position < bytes.byteCount, elements < 1 << 20 {
            elements += 1
            guard let id = vint(bytes, at: position, isID: true), let size = vint(bytes, at: position + Int64(id.length), isID: false) else {
                return ends("the element at byte \(position) is whole", bytes)
            }
            let start = position + Int64(id.length + size.length)
            guard let length = size.value else {
                // Unknown size: only a segment's children can be walked on from here.
                guard id.value == 0x1853_8067, !inSegment else { return nil }
                inSegment = true
                position = start
                continue
            }
            guard start + length <= bytes.byteCount else { return runsPast("its element \(String(id.value ?? 0, radix: 16, uppercase: true))", at: position, bytes) }
            position = start + length
        }
        return nil
    }

    /// An EBML variable-length integer: an element's id (its marker bit kept) or size (nil when
    /// all its bits are ones: unknown), and how many bytes it takes.
    private static func vint(_ bytes: any RandomAccessBytes, at offset: Int64, isID: Bool) -> (value: Int64?, length: Int)? {
        guard let first = bytes.bytes(at: offset, 1)?.first, first != 0 else { return nil }
        let length = first.leadingZeroBitCount + 1
        guard length <= (isID ? 4 : 8), let all = bytes.bytes(at: offset, length) else { return nil }
        if isID { return (all.reduce(Int64(0)) { $0 << 8 | Int64($1) }, length) }
        let value = all.dropFirst().reduce(Int64(first & (0xFF >> length))) { $0 << 8 | Int64($1) }
        return (value == (Int64(1) << (7 * length)) - 1 ? nil : value, length)
    }

    // MARK: JPEG XL

    /// A JPEG XL container to its last box, holding its codestream whole (`jxlc`, or `jxlp`
    /// parts, the last flagged). A bare codestream declares no length a reader can check without
    /// decoding it: nil.
    static func jpegXL(_ bytes: any RandomAccessBytes) -> String? {
        guard bytes.bytes(at: 0, 2) != [0xFF, 0x0A] else { return nil }
        do {
            let reader = ISOBoxReader(bytes)
            let boxes = try reader.topLevel()
            if let end = boxes.last?.end, end < bytes.byteCount { return runsPast("the box", at: end, bytes) }
            if boxes.contains(where: { $0.type == "jxlc" }) { return nil }
            guard let last = boxes.last(where: { $0.type == "jxlp" }) else {
                return "cut short: it holds no codestream (the file has \(bytes.byteCount) bytes)"
            }
            let index = try bytes.read(at: last.payloadStart, length: 4)
            return index[0] & 0x80 != 0 ? nil : "cut short: its codestream's last part is missing (the file has \(bytes.byteCount) bytes)"
        } catch .truncated(let offset) {
            return runsPast("the box", at: offset, bytes)
        } catch {
            return nil
        }
    }

    // MARK: Sound and transport streams

    /// MPEG audio (MP3) or ADTS (AAC) frame by frame, after any ID3v2 tag: the last frame whole.
    /// A frame whose length its header cannot give (free format) or bytes that are no frame (an
    /// ID3v1 or APE tag at the end) end the walk: nothing more can be told.
    static func mpegAudio(_ bytes: any RandomAccessBytes) -> String? {
        var position: Int64 = 0
        while let tag = bytes.bytes(at: position, 10), tag[0..<3].elementsEqual("ID3".utf8) {
            let size = tag[6..<10].reduce(Int64(0)) { $0 << 7 | Int64($1 & 0x7F) } + 10 + (tag[5] & 0x10 != 0 ? 10 : 0)
            guard position + size <= bytes.byteCount else { return runsPast("its ID3 tag", at: position, bytes) }
            position += size
        }
        var frames = 0
        while position < bytes.byteCount, frames < 1 << 24 {
            guard let header = bytes.bytes(at: position, min(7, Int(bytes.byteCount - position))), header.count >= 4,
                  let length = frameLength(header)
            else {
                // A frame's first bytes at the very end: the rest of it is missing.
                let tail = bytes.bytes(at: position, Int(min(4, bytes.byteCount - position))) ?? []
                return tail.count < 4 && tail.first == 0xFF ? ends("its last frame is whole", bytes) : nil
            }
            guard position + length <= bytes.byteCount else { return runsPast("its frame", at: position, bytes) }
            position += length
            frames += 1
        }
        return nil
    }

    /// The length of the MPEG audio or ADTS frame whose header `header` starts with; nil when it
    /// is no frame header, or one that does not give its length.
    private static func frameLength(_ header: [UInt8]) -> Int64? {
        guard header[0] == 0xFF, header[1] & 0xE0 == 0xE0 else { return nil }
        let version = Int(header[1] >> 3 & 0x03), layer = Int(header[1] >> 1 & 0x03)
        if layer == 0 {
            // ADTS: its 13-bit frame length, header included.
            guard header.count >= 7, header[1] & 0xF6 == 0xF0 else { return nil }
            let length = Int64(header[3] & 0x03) << 11 | Int64(header[4]) << 3 | Int64(header[5] >> 5)
            return length >= 7 ? length : nil
        }
        let bitrateIndex = Int(header[2] >> 4), rateIndex = Int(header[2] >> 2 & 0x03), padding = Int64(header[2] >> 1 & 0x01)
        guard version != 1, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let mpeg1 = version == 3
        let kilobits: [Int64]
        switch (mpeg1, layer) {
        case (true, 3): kilobits = [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (true, 2): kilobits = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (true, _): kilobits = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (false, 3): kilobits = [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        case (false, _): kilobits = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        let rate = Int64([44_100, 48_000, 32_000][rateIndex] >> (mpeg1 ? 0 : version == 2 ? 1 : 2))
        let bitrate = kilobits[bitrateIndex] * 1000
        switch layer {
        case 3: return (12 * bitrate / rate + padding) * 4
        case 1 where !mpeg1: return 72 * bitrate / rate + padding
        default: return 144 * bitrate / rate + padding
        }
    }

    /// Ogg page by page (a 27-byte header, its segment table, the segments), the last page the
    /// one that ends its stream.
    static func ogg(_ bytes: any RandomAccessBytes) -> String? {
        var position: Int64 = 0
        var endsStream = false
        var pages = 0
        while position < bytes.byteCount, pages < 1 << 24 {
            guard let header = bytes.bytes(at: position, 27) else { return ends("its last page is whole", bytes) }
            guard header[0..<4].elementsEqual("OggS".utf8) else { return nil }
            guard let table = bytes.bytes(at: position + 27, Int(header[26])) else { return runsPast("its page", at: position, bytes) }
            let end = position + 27 + Int64(table.count) + table.reduce(Int64(0)) { $0 + Int64($1) }
            guard end <= bytes.byteCount else { return runsPast("its page", at: position, bytes) }
            endsStream = header[5] & 0x04 != 0
            position = end
            pages += 1
        }
        return endsStream ? nil : ends("the page that ends its stream", bytes)
    }

    /// FLAC's metadata blocks, to the last; its frames say no length, so nothing is told of them.
    static func flac(_ bytes: any RandomAccessBytes) -> String? {
        var position: Int64 = 4
        while true {
            guard let header = bytes.bytes(at: position, 4) else { return ends("its last metadata block", bytes) }
            let end = position + 4 + header[1..<4].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            guard end <= bytes.byteCount else { return runsPast("its metadata block", at: position, bytes) }
            if header[0] & 0x80 != 0 { return nil }
            position = end
        }
    }

    /// An MPEG transport stream is whole packets of 188 bytes (192 in M2TS).
    static func transportStream(_ bytes: any RandomAccessBytes) -> String? {
        guard let head = bytes.bytes(at: 0, Int(min(400, bytes.byteCount))), let layout = AVCHDDates.packetLayout(head) else { return nil }
        let partial = bytes.byteCount % Int64(layout.size)
        return partial == 0 ? nil : "cut short: its last packet has \(partial) of its \(layout.size) bytes"
    }
}

// MARK: - ReadAhead

/// Bytes read through a window of `window` bytes read at once, so a walk of small reads (a
/// PNG's chunks, an MP3's frames) costs a read call a window, not one each.
final class ReadAhead: RandomAccessBytes {
    let base: any RandomAccessBytes
    let window: Int
    private var held: [UInt8] = []
    private var heldStart: Int64 = 0

    init(_ base: any RandomAccessBytes, window: Int = 256 << 10) {
        self.base = base
        self.window = window
    }

    var byteCount: Int64 { base.byteCount }

    func read(at offset: Int64, length: Int) throws(ContainerError) -> [UInt8] {
        guard offset >= 0, length >= 0, offset + Int64(length) <= byteCount else { throw ContainerError.truncated(at: offset) }
        guard length <= window else { return try base.read(at: offset, length: length) }
        if offset < heldStart || offset + Int64(length) > heldStart + Int64(held.count) {
            held = try base.read(at: offset, length: Int(min(Int64(window), byteCount - offset)))
            heldStart = offset
        }
        let start = Int(offset - heldStart)
        return Array(held[start..<(start + length)])
    }
}

extension RandomAccessBytes {
    /// Exactly `length` bytes from `offset`, or nil when they are not all there.
    func bytes(at offset: Int64, _ length: Int) -> [UInt8]? {
        try? read(at: offset, length: length)
    }
}

extension PhotoContent {
    /// The content as the walks read it: a scratch file through a window.
    var readingAhead: any RandomAccessBytes {
        switch self {
        case .memory(let bytes): bytes
        case .file(let file): ReadAhead(file)
        }
    }
}

extension SourceInput {
    /// Why the source, read where it lies, is cut short by `check`; nil when it reads whole, or
    /// cannot be opened (its read then says why). Opened as every read of a source is: only the
    /// file that was found, through no link that was not judged.
    func cutShort(by check: (any RandomAccessBytes) -> String?) -> String? {
        guard let descriptor = try? source.openForReading() else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return check(ReadAhead(DescriptorBytes(descriptor: descriptor, byteCount: Int64(info.st_size))))
    }
}
