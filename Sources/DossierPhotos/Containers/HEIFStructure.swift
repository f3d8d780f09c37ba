import CImageShims

/// What Dossier reads of a HEIF file's `meta` box itself, beside libheif: which transforms the
/// primary image carries, where its EXIF item's bytes lie in the file, so that the EXIF
/// Orientation can be reset in place, and where its XMP packet lies (its dates, when EXIF has none).
struct HEIFStructure: Sendable {
    /// The primary item's transform properties (`irot`, `imir`, `clap`), in association order.
    let primaryTransforms: [String]
    /// Where the primary image's EXIF item lies in the file: its extents, in order. Nil when it
    /// has none, when its bytes are not plain extents of the file (stored in `idat`, or in
    /// another file), which no in-place edit can reach, or when they add up to more than
    /// DOSSIER_MAX_METADATA_SIZE (they are read whole to be edited).
    let exifExtents: [Range<Int64>]?
    /// Where the primary image's XMP packet lies (a `mime` item of type `application/rdf+xml`):
    /// its extents, in order; nil as for `exifExtents`.
    let xmpExtents: [Range<Int64>]?

    /// Whether the container turns or mirrors the picture (a crop alone leaves it upright).
    var turnsOrMirrors: Bool { primaryTransforms.contains("irot") || primaryTransforms.contains("imir") }

    init(reading bytes: any RandomAccessBytes) throws(ContainerError) {
        let reader = ISOBoxReader(bytes)
        guard let meta = try reader.find(["meta"]) else { throw ContainerError.malformed("no 'meta' box") }
        let boxes = try reader.children(of: meta, skipping: 4)
        let payload = { (type: String) throws(ContainerError) -> [UInt8]? in
            guard let box = boxes.first(where: { $0.type == type }) else { return nil }
            return try reader.payload(of: box)
        }
        guard let pitm = try payload("pitm") else { throw ContainerError.malformed("no 'pitm' box: no primary image") }
        let primary = try HEIFStructure.primaryItem(pitm)
        var transforms: [String] = []
        if let iprp = boxes.first(where: { $0.type == "iprp" }) {
            let children = try reader.children(of: iprp, depth: 2)
            if let ipco = children.first(where: { $0.type == "ipco" }),
               let ipma = children.first(where: { $0.type == "ipma" }) {
                let properties = try reader.children(of: ipco, depth: 3).map(\.type)
                transforms = try HEIFStructure.associations(of: primary, in: try reader.payload(of: ipma))
                    .compactMap { $0 >= 1 && $0 <= properties.count ? properties[$0 - 1] : nil }
                    .filter { ["irot", "imir", "clap"].contains($0) }
            }
        }
        primaryTransforms = transforms
        var exifItems: [UInt32] = [], xmpItems: [UInt32] = []
        if let iinf = try payload("iinf") {
            let items = try HEIFStructure.items(in: iinf)
            exifItems = items.filter { $0.type == "Exif" }.map(\.id)
            xmpItems = items.filter { $0.type == "mime" && $0.contentType == "application/rdf+xml" }.map(\.id)
        }
        var describing: [UInt32]?
        if let iref = try payload("iref") {
            describing = try HEIFStructure.items(referencing: primary, by: "cdsc", in: iref)
        }
        let iloc = try payload("iloc")
        /// The item describing the primary image (else the first), where it lies whole in the file.
        func extents(ofFirst items: [UInt32]) throws(ContainerError) -> [Range<Int64>]? {
            guard let item = items.first(where: { describing?.contains($0) ?? true }) ?? items.first, let iloc,
                  let extents = try HEIFStructure.extents(of: item, in: iloc, fileSize: bytes.byteCount),
                  extents.reduce(0, { $0 + $1.count }) <= Int(DOSSIER_MAX_METADATA_SIZE)
            else { return nil }
            return extents
        }
        exifExtents = try extents(ofFirst: exifItems)
        xmpExtents = try extents(ofFirst: xmpItems)
    }

    /// The XMP packet, read from where it lies in the file; nil when it has none.
    static func xmpPacket(in bytes: any RandomAccessBytes, at extents: [Range<Int64>]) -> String? {
        var packet: [UInt8] = []
        for extent in extents {
            guard let part = try? bytes.read(at: extent.lowerBound, length: Int(extent.count)) else { return nil }
            packet += part
        }
        return String(decoding: packet, as: UTF8.self)
    }

    private static func primaryItem(_ pitm: [UInt8]) throws(ContainerError) -> UInt32 {
        var cursor = ByteCursor(pitm, box: "pitm")
        let version = try cursor.uint8()
        try cursor.skip(3)
        return version == 0 ? UInt32(try cursor.uint16()) : try cursor.uint32()
    }

    /// The 1-based property indexes associated with `item`.
    private static func associations(of item: UInt32, in ipma: [UInt8]) throws(ContainerError) -> [Int] {
        var cursor = ByteCursor(ipma, box: "ipma")
        let version = try cursor.uint8()
        let flags = try cursor.take(3)
        let wideIndexes = flags.last! & 1 == 1
        let entries = try cursor.uint32()
        for _ in 0..<entries {
            let id = version < 1 ? UInt32(try cursor.uint16()) : try cursor.uint32()
            let count = Int(try cursor.uint8())
            var indexes: [Int] = []
            for _ in 0..<count {
                indexes.append(wideIndexes ? Int(try cursor.uint16() & 0x7FFF) : Int(try cursor.uint8() & 0x7F))
            }
            if id == item { return indexes }
        }
        return []
    }

    /// The `infe` entries: each item's id, type, and for a `mime` item its content type.
    private static func items(in iinf: [UInt8]) throws(ContainerError) -> [(id: UInt32, type: String, contentType: String?)] {
        var cursor = ByteCursor(iinf, box: "iinf")
        let version = try cursor.uint8()
        try cursor.skip(3)
        let count = version == 0 ? UInt32(try cursor.uint16()) : try cursor.uint32()
        var found: [(id: UInt32, type: String, contentType: String?)] = []
        for _ in 0..<count {
            guard cursor.remaining >= 8 else { break }
            let size = Int(try cursor.uint32())
            let boxType = try cursor.fourCC()
            guard size >= 8, size - 8 <= cursor.remaining else {
                throw ContainerError.malformed("an 'infe' box does not fit its 'iinf'")
            }
            var entry = ByteCursor(Array(try cursor.take(size - 8)), box: "infe")
            guard boxType == "infe" else { continue }
            let entryVersion = try entry.uint8()
            try entry.skip(3)
            // Versions 0 and 1 carry no item type: never an EXIF item.
            guard entryVersion >= 2 else { continue }
            let id = entryVersion == 2 ? UInt32(try entry.uint16()) : try entry.uint32()
            try entry.skip(2)
            let type = try entry.fourCC()
            var contentType: String?
            if type == "mime" {
                // The item's name, then its content type: each a string ended by a zero byte.
                let rest = Array(try entry.take(entry.remaining))
                let fields = rest.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
                if fields.count >= 2 { contentType = String(decoding: fields[1], as: UTF8.self) }
            }
            found.append((id, type, contentType))
        }
        return found
    }

    /// The items that refer to `target` with a reference of `type` (`cdsc`: "describes").
    private static func items(referencing target: UInt32, by type: String, in iref: [UInt8])
        throws(ContainerError) -> [UInt32]
    {
        var cursor = ByteCursor(iref, box: "iref")
        let version = try cursor.uint8()
        try cursor.skip(3)
        var found: [UInt32] = []
        while cursor.remaining >= 8 {
            let size = Int(try cursor.uint32())
            let referenceType = try cursor.fourCC()
            guard size >= 8, size - 8 <= cursor.remaining else {
                throw ContainerError.malformed("a reference does not fit its 'iref'")
            }
            var reference = ByteCursor(Array(try cursor.take(size - 8)), box: referenceType)
            guard referenceType == type else { continue }
            let from = version == 0 ? UInt32(try reference.uint16()) : try reference.uint32()
            let count = try reference.uint16()
            for _ in 0..<count {
                let to = version == 0 ? UInt32(try reference.uint16()) : try reference.uint32()
                if to == target { found.append(from) }
            }
        }
        return found
    }

    /// Where `item`'s bytes lie, if they are extents of this very file.
    private static func extents(of item: UInt32, in iloc: [UInt8], fileSize: Int64) throws(ContainerError) -> [Range<Int64>]? {
        var cursor = ByteCursor(iloc, box: "iloc")
        let version = try cursor.uint8()
        try cursor.skip(3)
        let sizes = try cursor.uint8()
        let sizes2 = try cursor.uint8()
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0xF), baseOffsetSize = Int(sizes2 >> 4)
        let indexSize = version >= 1 ? Int(sizes2 & 0xF) : 0
        let count = version < 2 ? UInt32(try cursor.uint16()) : try cursor.uint32()
        for _ in 0..<count {
            let id = version < 2 ? UInt32(try cursor.uint16()) : try cursor.uint32()
            let constructionMethod = version >= 1 ? try cursor.uint16() & 0xF : 0
            let dataReference = try cursor.uint16()
            let base = try cursor.unsigned(bytes: baseOffsetSize)
            let extentCount = try cursor.uint16()
            var ranges: [Range<Int64>] = []
            for _ in 0..<extentCount {
                _ = try cursor.unsigned(bytes: indexSize)
                let offset = try cursor.unsigned(bytes: offsetSize)
                let length = try cursor.unsigned(bytes: lengthSize)
                let (start, overflow) = base.addingReportingOverflow(offset)
                guard !overflow, start <= UInt64(fileSize), length <= UInt64(fileSize) - start else {
                    throw ContainerError.malformed("item \(id)'s bytes lie past the end of the file")
                }
                // Length 0 means "to the end of the file".
                ranges.append(Int64(start)..<(length == 0 ? fileSize : Int64(start + length)))
            }
            if id == item { return constructionMethod == 0 && dataReference == 0 ? ranges : nil }
        }
        return nil
    }
}
