import Foundation
import Testing
@testable import DossierRecords

@Suite("Loading property lists safely")
struct PropertyListLoaderTests {
    let path = "/in/profile.plist"

    func load(_ text: String) throws -> Any {
        try PropertyListLoader.load(Array(text.utf8), path: path)
    }

    func xml(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>
        """
    }

    /// A `bplist00` file of the given objects, the offset table and trailer worked out.
    static func bplist(_ objects: [[UInt8]], top: Int = 0, offsetSize: Int = 1, referenceSize: Int = 1) -> [UInt8] {
        func bigEndian(_ value: Int, _ width: Int) -> [UInt8] {
            (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += bigEndian(offset, offsetSize) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        return bytes + bigEndian(objects.count, 8) + bigEndian(top, 8) + bigEndian(table, 8)
    }

    func loadBinary(_ objects: [[UInt8]], top: Int = 0, offsetSize: Int = 1, referenceSize: Int = 1) throws -> Any {
        try PropertyListLoader.load(PropertyListLoaderTests.bplist(objects, top: top, offsetSize: offsetSize, referenceSize: referenceSize),
                                    path: path)
    }

    func binaryFailure(_ reason: String) -> PropertyListError {
        .invalidBinary(path: path, reason: reason)
    }

    @Test("Values are Swift values whatever the format: Int, UInt64 above Int.max, Double, Bool, String, Date, Data")
    func valueTypes() throws {
        let fromXML = try #require(try load(xml("""
            <array><integer>5</integer><integer>18446744073709551615</integer><integer>-9223372036854775808</integer>
            <real>1.5</real><real>2</real><true/><false/><string>레오</string>
            <date>2024-03-02T14:15:03Z</date><data>AAEC</data></array>
            """)) as? [Any])
        // 0x14: a 16-byte integer, how binary plists hold 2^64-1.
        let fromBinary = try #require(try loadBinary([
            [0xAA, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
            [0x10, 5], [0x14] + Array(repeating: 0, count: 8) + Array(repeating: 0xFF, count: 8),
            [0x13, 0x80, 0, 0, 0, 0, 0, 0, 0], [0x23] + withUnsafeBytes(of: 1.5.bitPattern.bigEndian, Array.init),
            [0x23] + withUnsafeBytes(of: 2.0.bitPattern.bigEndian, Array.init), [0x09], [0x08],
            [0x62, 0xB8, 0x08, 0xC6, 0x24], [0x33] + withUnsafeBytes(of: 731_081_703.0.bitPattern.bigEndian, Array.init),
            [0x43, 0, 1, 2],
        ]) as? [Any])
        for values in [fromXML, fromBinary] {
            #expect(values[0] as? Int == 5)
            #expect(values[1] as? UInt64 == UInt64.max)
            #expect(values[2] as? Int == Int.min)
            #expect(values[3] as? Double == 1.5)
            #expect(values[4] as? Double == 2)
            #expect(values[5] as? Bool == true && values[6] as? Bool == false)
            #expect(values[7] as? String == "레오")
            #expect(values[8] as? Date == Date(timeIntervalSinceReferenceDate: 731_081_703))
            #expect(values[9] as? Data == Data([0, 1, 2]))
            #expect(PropertyListValueText.of(values) == PropertyListValueText.of(fromXML))
        }
    }

    @Test("A picker's taxonomy (class -> species -> morphs) loads as nested dictionaries and arrays")
    func taxonomy() throws {
        let loaded = try load(xml("""
            <dict>
              <key>reptile</key>
              <dict><key>Eublepharis macularius</key><array><string>normal</string><string>tangerine</string></array></dict>
              <key>arthropod</key><dict/>
            </dict>
            """))
        let taxonomy = try #require(loaded as? [String: [String: [String]]])
        #expect(taxonomy == ["reptile": ["Eublepharis macularius": ["normal", "tangerine"]], "arthropod": [:]])
    }

    @Test("An XML plist declaring entities is refused before any parsing: no billion laughs")
    func billionLaughs() throws {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [
              <!ENTITY lol "lol">
              <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
              <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
            ]>
            <plist><string>&lol3;</string></plist>
            """
        #expect(throws: PropertyListError.entityDeclaration(path: path, line: 3)) { _ = try load(laughs) }
        // Also when the file is UTF-16, and however the keyword is cased.
        let units: [UInt16] = Array(laughs.replacingOccurrences(of: "<!ENTITY lol \"", with: "<!entity lol \"").utf16)
        let utf16: [UInt8] = [0xFF, 0xFE] + units.flatMap { (unit: UInt16) -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(throws: PropertyListError.entityDeclaration(path: path, line: 3)) {
            _ = try PropertyListLoader.load(utf16, path: path)
        }
    }

    @Test("Shared arrays that would expand to 2^64 values are refused at once, not expanded")
    func binaryExpansion() throws {
        // Object n is [n-1, n-1]: 65 objects in 250 bytes, 2^65 values once expanded.
        let objects = [[0x10, 1]] + (1...64).map { [0xA2, UInt8($0 - 1), UInt8($0 - 1)] }
        let start = ContinuousClock.now
        #expect(throws: binaryFailure("shared objects expand to more than 1048576 values (a file built to exhaust memory)")) {
            _ = try loadBinary(objects, top: 64)
        }
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    @Test("Nesting deeper than 512 is refused in every format, before Foundation's recursive parsers")
    func deepNesting() throws {
        let depth = 100_000
        let xmlText = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        #expect(throws: PropertyListError.invalidXML(path: path, line: 1, reason: "containers are nested more than 512 deep")) {
            _ = try load(xmlText)
        }
        let openStep = String(repeating: "(", count: depth) + String(repeating: ")", count: depth)
        #expect(throws: PropertyListError.unsupported(path: path, reason: "line 1: OpenStep text nested more than 512 deep")) {
            _ = try load(openStep)
        }
        let levels = 2000
        let objects: [[UInt8]] = (0..<levels).map { index in
            index == levels - 1 ? [0xA0] : [0xA1, UInt8((index + 1) >> 8), UInt8((index + 1) & 0xFF)]
        }
        #expect(throws: binaryFailure("containers are nested more than 512 deep")) {
            _ = try loadBinary(objects, offsetSize: 2, referenceSize: 2)
        }
    }

    @Test("Counts and lengths larger than the file are refused without allocating them")
    func hugeCounts() throws {
        // An array claiming 2^31-1 elements; data, ASCII and UTF-16 strings claiming 2^62 bytes.
        #expect(throws: binaryFailure("object 0 claims 2147483647 elements or bytes, more than the file holds")) {
            _ = try loadBinary([[0xAF, 0x12, 0x7F, 0xFF, 0xFF, 0xFF, 0x00]])
        }
        for marker: UInt8 in [0x4F, 0x5F, 0x6F] {
            #expect(throws: binaryFailure("object 0 claims 4611686018427387904 elements or bytes, more than the file holds")) {
                _ = try loadBinary([[marker, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]])
            }
        }
        #expect(throws: binaryFailure("object 0 runs past the end of the object area")) {
            _ = try loadBinary([[0x4A, 1, 2, 3]])
        }
        #expect(throws: binaryFailure("object 0 runs past the end of the object area")) {
            _ = try loadBinary([[0xA3, 0, 0]])
        }
    }

    @Test("Equal objects a writer shared load in full: 300 species with one morph list of 50")
    func sharedObjects() throws {
        // Objects: 0 the root dictionary, 1...300 keys, 301 the shared array, 302...351 its strings.
        func reference(_ object: Int) -> [UInt8] { [UInt8(object >> 8), UInt8(object & 0xFF)] }
        let keys: [[UInt8]] = (1...300).map { (number: Int) -> [UInt8] in [0x53] + Array(String(format: "%03d", number).utf8) }
        let morphs: [[UInt8]] = (0..<50).map { (number: Int) -> [UInt8] in [0x52] + Array(String(format: "%02d", number).utf8) }
        var root: [UInt8] = [0xDF, 0x11, 0x01, 0x2C]
        for key in 1...300 { root += reference(key) }
        for _ in 1...300 { root += reference(301) }
        var array: [UInt8] = [0xAF, 0x10, 50]
        for morph in 302...351 { array += reference(morph) }
        let loaded = try #require(try loadBinary([root] + keys + [array] + morphs, offsetSize: 2, referenceSize: 2)
            as? [String: [String]])
        #expect(loaded.count == 300)
        #expect(loaded["001"] == (0..<50).map { String(format: "%02d", $0) })
        #expect(Set(loaded.values).count == 1)
    }

    @Test("A container that holds itself, through any path, is refused")
    func cycles() throws {
        #expect(throws: binaryFailure("object 0 contains itself (a reference cycle)")) {
            _ = try loadBinary([[0xA1, 1], [0xA1, 0]])
        }
        // Sharing without a cycle is fine: one string used twice.
        let shared = try loadBinary([[0xA2, 1, 1], [0x51, 0x61]])
        #expect(PropertyListValueText.of(shared) == "[\"a\", \"a\"]")
    }

    @Test("Damaged binary values are refused: beyond 64 bits, NaN or out-of-range dates, bad strings, sets, unknown markers")
    func damagedValues() throws {
        let cases: [([UInt8], String)] = [
            ([0x14, 1] + Array(repeating: 0, count: 15), "object 0 is an integer beyond 64 bits"),
            ([0x15] + Array(repeating: 0, count: 32), "object 0 is an integer of 32 bytes (at most 16)"),
            ([0x33] + withUnsafeBytes(of: Double.nan.bitPattern.bigEndian, Array.init), "object 0 is a date that is not a number (nan)"),
            ([0x33] + withUnsafeBytes(of: 1e12.bitPattern.bigEndian, Array.init),
             "object 0 is a date 1000000000000.0 s from 2001, outside the years 1 to 9999"),
            ([0x51, 0xE9], "object 0 is an ASCII string with a byte above 0x7F"),
            ([0x61, 0xD8, 0x00], "object 0 is a UTF-16 string with an unpaired surrogate"),
            ([0xC0], "object 0 is a set, which property lists do not have"),
            ([0x00], "object 0 has marker 0x00, not a property-list type (null or fill)"),
            ([0x70], "object 0 has the unknown marker 0x70"),
            ([0x22, 0, 0, 0], "object 0 runs past the end of the object area"),
        ]
        for (object, reason) in cases {
            #expect(throws: binaryFailure(reason)) { _ = try loadBinary([object]) }
        }
    }

    @Test("A damaged trailer is refused with what is wrong in it")
    func damagedTrailer() throws {
        var bytes = PropertyListLoaderTests.bplist([[0x09]])
        bytes[bytes.count - 16] = 1  // the top object's first byte: 2^56
        #expect(throws: binaryFailure("the top object 72057594037927936 is not among the 1 objects")) {
            _ = try PropertyListLoader.load(bytes, path: path)
        }
        #expect(throws: binaryFailure("9 bytes is too short for a header, an object, an offset table and a trailer")) {
            _ = try PropertyListLoader.load(Array("bplist00".utf8) + [0x09], path: path)
        }
    }

    @Test("Only bplist00 is read; other binary versions are refused by name")
    func binaryVersions() throws {
        #expect(throws: PropertyListError.unsupported(path: path, reason: "binary format 'bplist15'; only 'bplist00' is read")) {
            _ = try load("bplist15" + String(repeating: "\0", count: 40))
        }
    }

    @Test("XML that Foundation would read wrongly is refused: a key in an array, bad base64, an impossible date")
    func xmlFoundationMisreads() throws {
        #expect(throws: PropertyListError.invalidXML(path: path, line: 4, reason: "a <key> inside an <array>")) {
            _ = try load(xml("<array><key>k</key></array>"))
        }
        #expect(throws: PropertyListError.invalidXML(path: path, line: 4, reason: "the <data> is not valid base64")) {
            _ = try load(xml("<data>AAA</data>"))
        }
        #expect(throws: PropertyListError.invalidXML(path: path, line: 4, reason: "the <data> is not valid base64")) {
            _ = try load(xml("<data>!!!!</data>"))
        }
        #expect(throws: PropertyListError.invalidXML(
            path: path, line: 4, reason: "the <date> '2004-13-45T10:33:33Z' is not a date of the form YYYY-MM-DDTHH:MM:SSZ")) {
            _ = try load(xml("<date>2004-13-45T10:33:33Z</date>"))
        }
        #expect(throws: PropertyListError.invalidXML(path: path, line: 5, reason: "<plist> holds more than one value (found <string>)")) {
            _ = try load(xml("<string>a</string>\n<string>b</string>"))
        }
    }

    @Test("Values Foundation refuses are refused with Foundation's own reason")
    func foundationReasons() throws {
        #expect(throws: PropertyListError.unparseable(path: path, format: "XML",
                                                      reason: "Unknown character 'x' (0x78) in <integer> on line 4")) {
            _ = try load(xml("<integer>xyz</integer>"))
        }
        #expect { _ = try load("{ a = ; }") } throws: { error in
            guard case .unparseable(let failed, "OpenStep", let reason) = error as? PropertyListError else { return false }
            return failed == path && !reason.isEmpty
        }
    }

    @Test("OpenStep text, comments and .strings-style files load where Foundation reads them")
    func openStep() throws {
        let loaded = try load("/* pets */ { leo = { species = \"Eublepharis macularius\"; morphs = (normal, tangerine); }; }")
        #expect(PropertyListValueText.of(loaded)
            == "{leo: {morphs: [\"normal\", \"tangerine\"], species: \"Eublepharis macularius\"}}")
        #expect(PropertyListValueText.of(try load("\"greeting\" = \"안녕\";\n")) == "{greeting: \"안녕\"}")
    }

    @Test("A file that cannot be read is refused, naming it")
    func unreadable() throws {
        #expect { _ = try PropertyListLoader.load(path: "/nonexistent/pets.plist") } throws: { error in
            guard case .unreadable(let path, let reason) = error as? PropertyListError else { return false }
            return path == "/nonexistent/pets.plist" && !reason.isEmpty
        }
    }

    @Test("An empty file is refused as empty")
    func empty() throws {
        #expect(throws: PropertyListError.empty(path: path)) { _ = try load("") }
        #expect(throws: PropertyListError.empty(path: path)) { _ = try load(" \n") }
    }

    @Test("Messages name the file and say what is wrong")
    func descriptions() {
        #expect(PropertyListError.invalidBinary(path: "/a.plist", reason: "object 0 contains itself (a reference cycle)").description
            == "/a.plist: not a valid binary property list: object 0 contains itself (a reference cycle)")
        #expect(PropertyListError.invalidXML(path: "/a.plist", line: 4, reason: "a <key> inside an <array>").description
            == "/a.plist:4: not a valid XML property list: a <key> inside an <array>")
        #expect(PropertyListError.unparseable(path: "/a.plist", format: "OpenStep", reason: "Unexpected ';'").description
            == "/a.plist: not a valid OpenStep property list: Unexpected ';'")
        #expect(PropertyListError.empty(path: "/a.plist").description == "/a.plist: the file is empty, not a property list")
    }
}
