/// How many bytes the items of a HEIF file claim, as its `iloc` box says: those that are not
/// pictures together, and the largest picture item. libheif takes every item's size from `iloc`
/// and reads the item whole into memory, so these are what it would allocate; read here first,
/// in a reader that keeps nothing per item, so a hostile `iloc` costs no more than its own bytes.
struct HEIFItemSizes: Sendable {
    /// The bytes of every item that is not of the picture types (EXIF, XMP, any type a reader
    /// does not know, an item with no `infe`), added up.
    let metadataBytes: Int64
    /// The picture item that claims the most bytes.
    let largestPicture: (id: UInt32, bytes: Int64)?

    /// `pictureTypes`: the item types whose bytes are pictures (`hvc1`, `grid`...), not metadata.
    init(reading bytes: any RandomAccessBytes, pictureTypes: Set<String>) throws(ContainerError) {
        let reader = ISOBoxReader(bytes)
        guard let meta = try reader.firstTopLevel("meta") else { throw ContainerError.malformed("no 'meta' box") }
        let boxes = try reader.children(of: meta, skipping: 4)
        var pictures: Set<UInt32> = []
        if let iinf = boxes.first(where: { $0.type == "iinf" }) {
            pictures = try HEIFItemSizes.items(ofTypes: pictureTypes, in: try reader.payload(of: iinf))
        }
        var metadata: Int64 = 0
        var largest: (id: UInt32, bytes: Int64)?
        if let iloc = boxes.first(where: { $0.type == "iloc" }) {
            let bounds = Bounds(fileSize: bytes.byteCount,
                                idatSize: boxes.first(where: { $0.type == "idat" })?.payloadLength ?? 0)
            try HEIFItemSizes.forEachItem(in: try reader.payload(of: iloc), within: bounds) { id, claimed in
                if pictures.contains(id) {
                    if claimed > largest?.bytes ?? -1 { largest = (id, claimed) }
                } else {
                    metadata = HEIFItemSizes.adding(metadata, claimed)
                }
            }
        }
        metadataBytes = metadata
        largestPicture = largest
    }

    /// Where an item's extents may lie: the file (construction method 0) or its `idat` (1).
    private struct Bounds {
        let fileSize: Int64
        let idatSize: Int64
    }

    /// The ids of the `infe` entries whose item type is one of `types`.
    private static func items(ofTypes types: Set<String>, in iinf: [UInt8]) throws(ContainerError) -> Set<UInt32> {
        var cursor = ByteCursor(iinf, box: "iinf")
        let version = try cursor.uint8()
        try cursor.skip(3)
        let count = version == 0 ? UInt32(try cursor.uint16()) : try cursor.uint32()
        var found: Set<UInt32> = []
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
            // Versions 0 and 1 carry no item type: never a picture.
            guard entryVersion >= 2 else { continue }
            let id = entryVersion == 2 ? UInt32(try entry.uint16()) : try entry.uint32()
            try entry.skip(2)
            if types.contains(try entry.fourCC()) { found.insert(id) }
        }
        return found
    }

    /// Calls `body` with each `iloc` item's id and the bytes its extents claim. An extent of
    /// length 0 claims the rest of the file (or `idat`) from its start, as the standard reads it;
    /// an extent past the end claims nothing (libheif refuses it before allocating), nor does an
    /// item whose bytes are in another item or another file.
    private static func forEachItem(in iloc: [UInt8], within bounds: Bounds,
                                    _ body: (UInt32, Int64) -> Void) throws(ContainerError) {
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
            let extentCount = Int(try cursor.uint16())
            let limit: Int64? = dataReference != 0 ? nil
                : constructionMethod == 0 ? bounds.fileSize : constructionMethod == 1 ? bounds.idatSize : nil
            // Extents of no bytes at all are all the same extent: counted once and multiplied, so
            // 65 535 of them in every item cost no time.
            let extentsToRead = offsetSize + lengthSize + indexSize == 0 ? min(extentCount, 1) : extentCount
            var claimed: Int64 = 0
            for _ in 0..<extentsToRead {
                _ = try cursor.unsigned(bytes: indexSize)
                let offset = try cursor.unsigned(bytes: offsetSize)
                let length = try cursor.unsigned(bytes: lengthSize)
                guard let limit else { continue }
                claimed = adding(claimed, extent(start: base, offset: offset, length: length, limit: limit))
            }
            if extentsToRead < extentCount { claimed = multiplying(claimed, extentCount) }
            body(id, claimed)
        }
    }

    /// The bytes one extent claims within `limit` bytes; 0 when it lies past them.
    private static func extent(start base: UInt64, offset: UInt64, length: UInt64, limit: Int64) -> Int64 {
        let (start, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, start <= UInt64(limit) else { return 0 }
        let room = UInt64(limit) - start
        if length == 0 { return Int64(room) }
        return length <= room ? Int64(length) : 0
    }

    /// Sums that stop at Int64.max: a hostile file's claims can overflow.
    private static func adding(_ total: Int64, _ more: Int64) -> Int64 {
        total > Int64.max - more ? Int64.max : total + more
    }

    private static func multiplying(_ bytes: Int64, _ times: Int) -> Int64 {
        let (product, overflow) = bytes.multipliedReportingOverflow(by: Int64(times))
        return overflow ? Int64.max : product
    }
}
