import DossierCore
import Glibc

/// Finds the boxes of an ISO base media file (HEIF, MP4, MOV, 3GP) without trusting a byte of it:
/// every size is checked against the file and the parent box, 64-bit sizes and "to the end of
/// the file" sizes are read as the standard has them, a box list stops at the first one that
/// does not fit, and nesting stops at `maximumDepth`. Only the boxes asked for are read, so a
/// video's media data is never touched.
struct ISOBoxReader {
    let bytes: any RandomAccessBytes
    /// Deeper than any real file nests (moov/trak/mdia/minf/stbl/stsd/... is 7).
    static let maximumDepth = 16
    /// The most a box read whole (`payload(of:)`) may hold: `meta` and `moov` run to a few MiB
    /// even for hours of video.
    static let maximumPayload: Int64 = 64 << 20
    /// The most boxes one list may hold: real lists hold a few (a grid's `ipco`, a few hundred);
    /// a hostile file of empty 8-byte boxes would otherwise make millions of them.
    static let maximumBoxes = 65_536

    init(_ bytes: any RandomAccessBytes) {
        self.bytes = bytes
    }

    /// The file's top-level boxes.
    func topLevel() throws(ContainerError) -> [ISOBox] {
        try boxes(from: 0, to: bytes.byteCount)
    }

    /// The top-level boxes up to the first bytes that are no box at all (their type is not four
    /// printable characters): phones append data of their own after the last box (Samsung's
    /// `SEFT` trailer). A box that claims more bytes than the file holds still throws: that
    /// file was cut off.
    func topLevelBeforeTrailer() throws(ContainerError) -> [ISOBox] {
        try boxes(from: 0, to: bytes.byteCount, stoppingAtTrailer: true)
    }

    /// The first top-level box of `type`, the boxes after it left unread: a HEIF's `meta` is found
    /// even when its media data after it is cut short, as libheif finds it.
    func firstTopLevel(_ type: String) throws(ContainerError) -> ISOBox? {
        try boxes(from: 0, to: bytes.byteCount, through: type).last.flatMap { $0.type == type ? $0 : nil }
    }

    /// The boxes inside `parent`, after `skipping` bytes of its payload (4 for a full box's
    /// version and flags, as `meta` has in HEIF; more for sample entries).
    func children(of parent: ISOBox, skipping: Int64 = 0, depth: Int = 1) throws(ContainerError) -> [ISOBox] {
        guard depth <= ISOBoxReader.maximumDepth else { throw ContainerError.tooDeep(ISOBoxReader.maximumDepth) }
        return try boxes(from: parent.payloadStart + skipping, to: parent.end)
    }

    /// The first box of `type` along `path` below the top level (`["moov", "mvhd"]`), skipping
    /// a full box's 4 header bytes where `fullBoxes` names the parent.
    func find(_ path: [String], fullBoxes: Set<String> = ["meta"]) throws(ContainerError) -> ISOBox? {
        var level = try topLevel()
        var found: ISOBox?
        for (depth, type) in path.enumerated() {
            guard let box = level.first(where: { $0.type == type }) else { return nil }
            found = box
            if depth + 1 < path.count {
                level = try children(of: box, skipping: fullBoxes.contains(type) ? 4 : 0, depth: depth + 1)
            }
        }
        return found
    }

    /// A box's payload, read whole (refused past `maximumPayload`).
    func payload(of box: ISOBox) throws(ContainerError) -> [UInt8] {
        guard box.payloadLength <= ISOBoxReader.maximumPayload else {
            throw ContainerError.tooLarge(type: box.type, size: box.payloadLength)
        }
        return try bytes.read(at: box.payloadStart, length: Int(box.payloadLength))
    }

    private func boxes(from start: Int64, to end: Int64, stoppingAtTrailer: Bool = false, through last: String? = nil)
        throws(ContainerError) -> [ISOBox]
    {
        var found: [ISOBox] = []
        var offset = start
        while end - offset >= 8 {
            let header = try bytes.read(at: offset, length: 8)
            let size32 = UInt32(bigEndianBytes: header[0..<4])
            let type = ISOBoxReader.fourCC(header[4..<8])
            if stoppingAtTrailer, !found.isEmpty, !header[4..<8].allSatisfy(ISOBoxReader.isTypeCharacter) { break }
            var headerLength: Int64 = 8
            let size: Int64
            switch size32 {
            case 0:
                // "To the end of the file": only the last top-level box may say so.
                size = end - offset
            case 1:
                guard end - offset >= 16 else { throw ContainerError.truncated(at: offset) }
                let large = UInt64(bigEndianBytes: try bytes.read(at: offset + 8, length: 8)[0..<8])
                guard large <= UInt64(Int64.max) else { throw ContainerError.malformed("'\(type)' claims \(large) bytes") }
                size = Int64(large)
                headerLength = 16
            default:
                size = Int64(size32)
            }
            if type == "uuid" { headerLength += 16 }
            guard size >= headerLength else {
                throw ContainerError.malformed("'\(type)' at byte \(offset) claims \(size) bytes, less than its header")
            }
            guard size <= end - offset else { throw ContainerError.truncated(at: offset) }
            guard found.count < ISOBoxReader.maximumBoxes else {
                throw ContainerError.malformed("more than \(ISOBoxReader.maximumBoxes) boxes side by side")
            }
            found.append(ISOBox(type: type, start: offset, payloadStart: offset + headerLength, end: offset + size))
            if type == last { break }
            offset += size
        }
        return found
    }

    /// Letters, digits, space and the © of QuickTime's metadata types.
    static func isTypeCharacter(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x20
            || byte == 0xA9
    }

    /// Four bytes as a box type or brand: printable ASCII kept, anything else escaped.
    static func fourCC<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        String(bytes.map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "?" })
    }
}

extension FixedWidthInteger {
    /// The integer stored big-endian in `bytes` (exactly its width).
    init<C: Collection>(bigEndianBytes bytes: C) where C.Element == UInt8 {
        self = bytes.reduce(0) { ($0 << 8) | Self($1) }
    }
}

// MARK: - ISOFileType

/// What an ISO base media file says it is: the brands of its leading `ftyp` box, read from the
/// first bytes a sniff hands over.
struct ISOFileType: Equatable, Sendable {
    let majorBrand: String
    let compatibleBrands: [String]

    /// The `ftyp` box at the very start of `head`; nil if it is not there. Brands past the end
    /// of `head` (or of a box cut short) are not read: a damaged file is still recognised by
    /// those that are, so its decoder can say what is wrong with it.
    init?(head: [UInt8]) {
        guard head.count >= 12, ISOBoxReader.fourCC(head[4..<8]) == "ftyp" else { return nil }
        let declared = Int(UInt32(bigEndianBytes: head[0..<4]))
        let end = min(head.count, declared >= 16 ? declared : 12)
        majorBrand = ISOBoxReader.fourCC(head[8..<12])
        var brands: [String] = []
        var offset = 16
        while offset + 4 <= end {
            brands.append(ISOBoxReader.fourCC(head[offset..<offset + 4]))
            offset += 4
        }
        compatibleBrands = brands
    }

    var brands: [String] { [majorBrand] + compatibleBrands }

    /// Brands of HEIF still images and image sequences (ISO/IEC 23008-12, MIAF, AVIF): HEVC, AV1,
    /// VVC and the structural `mif1`/`msf1` family.
    static let imageBrands: Set<String> = ["mif1", "mif2", "mif3", "msf1", "miaf", "heic", "heix", "heim", "heis",
                                           "hevc", "hevx", "hevm", "hevs", "avif", "avis", "avio", "vvic", "vvis",
                                           "jpeg", "jpgs"]

    /// Brands of movies: QuickTime, MP4, M4V, 3GP and 3G2, and the ISO family they build on.
    static let movieBrands: Set<String> = ["qt  ", "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8",
                                           "iso9", "mp41", "mp42", "mp71", "avc1", "M4V ", "M4VH", "M4VP", "3gp4",
                                           "3gp5", "3gp6", "3gp7", "3gp8", "3gp9", "3g2a", "3g2b", "3g2c", "MSNV",
                                           "XAVC", "f4v ", "dash", "mmp4", "CAEP", "caqv", "niko", "MQT "]

    /// Any image brand makes it HEIF: a HEIF file may also list `iso8` or carry a movie track
    /// (a motion photo's), but a movie never lists a HEIF brand.
    var isHEIF: Bool { brands.contains { ISOFileType.imageBrands.contains($0) } }

    /// Major brands of sound alone (iTunes audio and audiobooks, Flash audio): their `isom`
    /// compatibility does not make them movies.
    static let soundBrands: Set<String> = ["M4A ", "M4B ", "M4P ", "F4A ", "F4B "]

    /// Major brands of camera raws in an ISO container (Canon's CR3): their `isom` compatibility
    /// does not make them movies.
    static let rawBrands: Set<String> = ["crx "]

    /// A movie: a movie brand, no image brand, and not a sound file or a raw.
    var isMovie: Bool {
        !isHEIF && !ISOFileType.soundBrands.contains(majorBrand) && !ISOFileType.rawBrands.contains(majorBrand)
            && brands.contains { ISOFileType.movieBrands.contains($0) }
    }
}

// MARK: - RandomAccessBytes

/// Bytes that can be read at any offset: a file in memory, or a file on disk read with `pread`,
/// so a container's boxes are found without reading a whole video.
protocol RandomAccessBytes {
    var byteCount: Int64 { get }
    /// Exactly `length` bytes from `offset`; throws when they are not all there.
    func read(at offset: Int64, length: Int) throws(ContainerError) -> [UInt8]
}

extension Array: RandomAccessBytes where Element == UInt8 {
    var byteCount: Int64 { Int64(count) }

    func read(at offset: Int64, length: Int) throws(ContainerError) -> [UInt8] {
        guard offset >= 0, length >= 0, offset + Int64(length) <= byteCount else {
            throw ContainerError.truncated(at: offset)
        }
        return Array(self[Int(offset)..<Int(offset) + length])
    }
}

extension ScratchFile: RandomAccessBytes {
    var byteCount: Int64 { size }

    func read(at offset: Int64, length: Int) throws(ContainerError) -> [UInt8] {
        guard offset >= 0, length >= 0, offset + Int64(length) <= size else { throw ContainerError.truncated(at: offset) }
        do {
            let bytes = try read(at: offset, count: length)
            guard bytes.count == length else { throw ContainerError.truncated(at: offset + Int64(bytes.count)) }
            return bytes
        } catch let error as ContainerError {
            throw error
        } catch {
            throw ContainerError.unreadable("\(error)")
        }
    }
}

extension PhotoContent {
    /// The photo's bytes, wherever they are, for a container reader.
    var randomAccess: any RandomAccessBytes {
        switch self {
        case .memory(let bytes): bytes
        case .file(let file): file
        }
    }
}
