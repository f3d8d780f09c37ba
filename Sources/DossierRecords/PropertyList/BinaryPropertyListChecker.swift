import Foundation

/// Walks a `bplist00` file's structure before Foundation is let near it. Foundation on Linux
/// accepts NaN and out-of-range dates (a NaN date then traps in `Date.description`), ASCII
/// strings with high bytes and UTF-16 with lone surrogates, and expands shared objects in full:
/// a few hundred bytes whose arrays each hold the previous one twice take it twice as long for each
/// level, so a deep one never ends. What it does refuse comes back as an OpenStep parse error ("Unexpected
/// character b") that says nothing of the fault. So everything is checked here first, in time and
/// memory proportional to the file.
///
/// Checks: the header; a sane trailer (sizes 1...8, an offset table inside the file, the top
/// object among the objects); every offset inside the object area; every count and length within
/// the bytes that remain; every reference below the object count; strings that decode; dictionary
/// keys that are strings; dates that are finite and within years 1...9999; nesting depth; cycles;
/// and the size of the tree once shared objects are expanded.
struct BinaryPropertyListChecker {
    static let header = Array("bplist00".utf8)
    static let trailerSize = 32
    static let maximumDepth = 512
    /// Seconds from 2001-01-01 to 0001-01-01 and to 9999-12-31T23:59:59, the years a date can have.
    static let dateRange = -63_113_904_000.0 ... 252_423_993_599.0

    struct Failure: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private enum Visit: UInt8 { case unvisited, inProgress, done }

    private let bytes: [UInt8]
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let topObject: Int
    private let offsetTableOffset: Int
    /// Expanded trees larger than this are refused. Writers share equal objects (Apple's does), so a
    /// real file may expand to many times its references; 16 values a byte, at least 2^20 and at most
    /// 2^24 (already slow and costly in Foundation: docs/performance.md, "BinaryPropertyListChecker"),
    /// is generous for real files and stops built ones.
    private let maximumExpandedSize: Int
    private var visits: [Visit]
    private var expandedSizes: [Int]

    /// Throws the first thing found wrong.
    static func check(_ bytes: [UInt8]) throws(Failure) {
        var checker = try BinaryPropertyListChecker(bytes)
        _ = try checker.visit(checker.topObject, depth: 1)
    }

    private init(_ bytes: [UInt8]) throws(Failure) {
        guard bytes.starts(with: BinaryPropertyListChecker.header) else { throw Failure("the header is not 'bplist00'") }
        let trailerSize = BinaryPropertyListChecker.trailerSize
        guard bytes.count >= BinaryPropertyListChecker.header.count + 1 + 1 + trailerSize else {
            throw Failure("\(bytes.count) bytes is too short for a header, an object, an offset table and a trailer")
        }
        self.bytes = bytes
        let trailer = bytes.count - trailerSize
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let objects = BinaryPropertyListChecker.bigEndian(bytes[(trailer + 8)..<(trailer + 16)])
        let top = BinaryPropertyListChecker.bigEndian(bytes[(trailer + 16)..<(trailer + 24)])
        let tableOffset = BinaryPropertyListChecker.bigEndian(bytes[(trailer + 24)..<(trailer + 32)])
        guard (1...8).contains(offsetSize) else { throw Failure("the trailer gives an offset size of \(offsetSize) bytes (1 to 8 allowed)") }
        guard (1...8).contains(referenceSize) else {
            throw Failure("the trailer gives an object reference size of \(referenceSize) bytes (1 to 8 allowed)")
        }
        // Every object takes at least a byte: more objects than bytes is a lie about the count.
        guard objects >= 1, objects <= UInt64(trailer) else {
            throw Failure("the trailer claims \(objects) objects in a file of \(bytes.count) bytes")
        }
        objectCount = Int(objects)
        guard top < objects else { throw Failure("the top object \(top) is not among the \(objects) objects") }
        topObject = Int(top)
        guard tableOffset >= UInt64(BinaryPropertyListChecker.header.count + 1), tableOffset < UInt64(trailer) else {
            throw Failure("the offset table offset \(tableOffset) is outside the file's \(bytes.count) bytes")
        }
        offsetTableOffset = Int(tableOffset)
        // Both at most 8 and objects fits the file: no overflow.
        guard offsetTableOffset + objectCount * offsetSize <= trailer else {
            throw Failure("the offset table (\(objectCount) offsets of \(offsetSize) bytes at \(offsetTableOffset)) runs into the trailer")
        }
        if referenceSize < 8, objectCount > 1 << (8 * referenceSize) {
            throw Failure("\(objectCount) objects cannot be referred to in \(referenceSize)-byte references")
        }
        maximumExpandedSize = min(max(1 << 20, 16 * bytes.count), 1 << 24)
        visits = Array(repeating: .unvisited, count: objectCount)
        expandedSizes = Array(repeating: 0, count: objectCount)
    }

    /// Checks one object and what it refers to; returns the size of its expanded tree.
    private mutating func visit(_ object: Int, depth: Int) throws(Failure) -> Int {
        switch visits[object] {
        case .done: return expandedSizes[object]
        case .inProgress: throw Failure("object \(object) contains itself (a reference cycle)")
        case .unvisited: break
        }
        guard depth <= BinaryPropertyListChecker.maximumDepth else {
            throw Failure("containers are nested more than \(BinaryPropertyListChecker.maximumDepth) deep")
        }
        visits[object] = .inProgress
        let start = try offset(of: object)
        let marker = bytes[start]
        let kind = marker >> 4, low = Int(marker & 0x0F)
        var size = 1
        switch kind {
        case 0x0:
            guard marker == 0x08 || marker == 0x09 else {
                throw Failure(String(format: "object %d has marker 0x%02X, not a property-list type (null or fill)", object, marker))
            }
        case 0x1:
            guard low <= 4 else { throw Failure("object \(object) is an integer of \(1 << low) bytes (at most 16)") }
            let width = 1 << low
            try need(start + 1, width, object)
            if width == 16 {
                // Foundation keeps 64 bits: the upper half must be a zero or sign extension.
                let high = bytes[(start + 1)..<(start + 9)], lowTop = bytes[start + 9] & 0x80
                guard high.allSatisfy({ $0 == 0 }) || (high.allSatisfy({ $0 == 0xFF }) && lowTop != 0) else {
                    throw Failure("object \(object) is an integer beyond 64 bits")
                }
            }
        case 0x2:
            guard low == 2 || low == 3 else { throw Failure("object \(object) is a real of \(1 << low) bytes (4 or 8 allowed)") }
            try need(start + 1, 1 << low, object)
        case 0x3:
            guard marker == 0x33 else { throw Failure(String(format: "object %d has the unknown date marker 0x%02X", object, marker)) }
            try need(start + 1, 8, object)
            let seconds = Double(bitPattern: BinaryPropertyListChecker.bigEndian(bytes[(start + 1)..<(start + 9)]))
            guard seconds.isFinite else { throw Failure("object \(object) is a date that is not a number (\(seconds))") }
            guard BinaryPropertyListChecker.dateRange.contains(seconds) else {
                throw Failure("object \(object) is a date \(seconds) s from 2001, outside the years 1 to 9999")
            }
        case 0x4:
            let (length, contents) = try count(at: start, low: low, object)
            try need(contents, length, object)
        case 0x5:
            let (length, contents) = try count(at: start, low: low, object)
            try need(contents, length, object)
            guard !bytes[contents..<(contents + length)].contains(where: { $0 >= 0x80 }) else {
                throw Failure("object \(object) is an ASCII string with a byte above 0x7F")
            }
        case 0x6:
            let (length, contents) = try count(at: start, low: low, object)
            guard length <= (offsetTableOffset - contents) / 2 else { throw overrun(object) }
            var units: [UInt16] = []
            units.reserveCapacity(length)
            for index in 0..<length {
                units.append(UInt16(bytes[contents + 2 * index]) << 8 | UInt16(bytes[contents + 2 * index + 1]))
            }
            guard String(validating: units, as: UTF16.self) != nil else {
                throw Failure("object \(object) is a UTF-16 string with an unpaired surrogate")
            }
        case 0x8:
            guard low < 4 else { throw Failure("object \(object) is a UID of \(low + 1) bytes (at most 4)") }
            try need(start + 1, low + 1, object)
        case 0xA, 0xD:
            let (length, contents) = try count(at: start, low: low, object)
            let references = kind == 0xD ? 2 * length : length
            // length is bounded by the file, so this cannot overflow.
            guard references <= (offsetTableOffset - contents) / referenceSize else { throw overrun(object) }
            for index in 0..<references {
                let reference = try self.reference(at: contents + index * referenceSize, object)
                if kind == 0xD && index < length {
                    let keyMarker = try bytes[offset(of: reference)] >> 4
                    guard keyMarker == 0x5 || keyMarker == 0x6 else {
                        throw Failure("object \(object) is a dictionary with a key (object \(reference)) that is not a string")
                    }
                }
                size += try visit(reference, depth: depth + 1)
                guard size <= maximumExpandedSize else {
                    throw Failure("shared objects expand to more than \(maximumExpandedSize) values (a file built to exhaust memory)")
                }
            }
        case 0xB, 0xC:
            throw Failure("object \(object) is a set, which property lists do not have")
        default:
            throw Failure(String(format: "object %d has the unknown marker 0x%02X", object, marker))
        }
        visits[object] = .done
        expandedSizes[object] = size
        return size
    }

    /// Where an object starts, checked to be inside the object area.
    private func offset(of object: Int) throws(Failure) -> Int {
        let entry = offsetTableOffset + object * offsetSize
        let value = BinaryPropertyListChecker.bigEndian(bytes[entry..<(entry + offsetSize)])
        guard value >= UInt64(BinaryPropertyListChecker.header.count), value < UInt64(offsetTableOffset) else {
            throw Failure("object \(object) has offset \(value), outside the object area 8..<\(offsetTableOffset)")
        }
        return Int(value)
    }

    private func reference(at position: Int, _ object: Int) throws(Failure) -> Int {
        let value = BinaryPropertyListChecker.bigEndian(bytes[position..<(position + referenceSize)])
        guard value < UInt64(objectCount) else {
            throw Failure("object \(object) refers to object \(value), but there are \(objectCount)")
        }
        return Int(value)
    }

    /// The element or byte count of an object and where its contents start: in the marker's low
    /// nibble, or (0xF) in an integer object that follows.
    private func count(at start: Int, low: Int, _ object: Int) throws(Failure) -> (Int, Int) {
        if low != 0x0F { return (low, start + 1) }
        try need(start + 1, 1, object)
        let marker = bytes[start + 1]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
            throw Failure(String(format: "object %d has a length with the marker 0x%02X, not a 1 to 8 byte integer", object, marker))
        }
        let width = 1 << Int(marker & 0x0F)
        try need(start + 2, width, object)
        let value = BinaryPropertyListChecker.bigEndian(bytes[(start + 2)..<(start + 2 + width)])
        // Nothing can be longer than the bytes left; this also keeps later arithmetic in range.
        guard value <= UInt64(offsetTableOffset) else {
            throw Failure("object \(object) claims \(value) elements or bytes, more than the file holds")
        }
        return (Int(value), start + 2 + width)
    }

    private func need(_ position: Int, _ length: Int, _ object: Int) throws(Failure) {
        guard length <= offsetTableOffset - position else { throw overrun(object) }
    }

    private func overrun(_ object: Int) -> Failure {
        Failure("object \(object) runs past the end of the object area")
    }

    private static func bigEndian(_ slice: ArraySlice<UInt8>) -> UInt64 {
        slice.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
