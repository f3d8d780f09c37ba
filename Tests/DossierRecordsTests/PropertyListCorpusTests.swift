import DossierTestSupport
import Foundation
import Testing
@testable import DossierRecords

/// The public property-list corpora in ../shared/corpora/plist: files no one on this project wrote.
@Suite("Property-list corpora: rust-plist and cpython-plistlib", SharedCorpora.required)
struct PropertyListCorpusTests {
    static let root = SharedCorpora.url("plist").path
    static let rust = root + "/rust-plist"
    static let cpython = root + "/cpython-plistlib"

    static func files(_ folder: String, suffix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(suffix) }.sorted()
            .map { "\(folder)/\($0)" }
    }

    static let rustMustFail: [String] = ["xml_error.plist", "xml_entity_error.plist", "binary_zero_offset_size.plist",
                                         "binary_circular_array.plist"].map { "\(rust)/tests/data/\($0)" }
        + files(rust + "/fuzzer-inline", suffix: ".expect-err.bplist")
    static let cpythonInvalidBinary = files(cpython + "/invalid_binary", suffix: ".bplist")
    static let cpythonInvalidXML = files(cpython + "/invalid_xml", suffix: ".plist")
    static let mustFail = rustMustFail + cpythonInvalidBinary + cpythonInvalidXML + [cpython + "/xml_with_entity_decl.expect-err.plist"]

    func load(_ path: String) throws -> Any {
        try PropertyListLoader.load([UInt8](Data(contentsOf: URL(fileURLWithPath: path))), path: path)
    }

    func text(_ path: String) throws -> String {
        PropertyListValueText.of(try load(path))
    }

    static let shakespeareData = Data([0, 0, 0, 0xBE, 0, 0, 0, 3, 0, 0, 0, 0x1E, 0, 0, 0])
    static func shakespeare() -> [String: Any] {
        [
        "Author": "William Shakespeare",
        "Lines": ["It is a tale told by an idiot,     ", "Full of sound and fury, signifying nothing."],
        "Death": 1564, "Height": 1.6, "Data": shakespeareData,
        "Birthdate": Date(timeIntervalSince1970: 358_860_726), // 1981-05-16T11:32:06Z
        "Blank": "", "BiggestNumber": UInt64.max, "SmallestNumber": Int.min, "IsTrue": true, "IsNotFalse": false,
        ]
    }

    @Test("The corpora are present, with every must-fail file")
    func corporaPresent() {
        #expect(PropertyListCorpusTests.cpythonInvalidBinary.count == 40, SharedCorpora.absentMessage)
        #expect(PropertyListCorpusTests.cpythonInvalidXML.count == 12)
        #expect(PropertyListCorpusTests.rustMustFail.count == 11)
    }

    @Test("rust-plist xml.plist loads to its listed values, 2^64-1 and the hexadecimal number included")
    func rustXML() throws {
        var expected = PropertyListCorpusTests.shakespeare()
        expected["HexademicalNumber"] = 0xDEADBEEF
        expected["Pets"] = "A cat & a dog."
        #expect(try text(PropertyListCorpusTests.rust + "/tests/data/xml.plist") == PropertyListValueText.of(expected))
    }

    @Test("rust-plist binary.plist loads to the same values, with its empty array and dictionary")
    func rustBinary() throws {
        var expected = PropertyListCorpusTests.shakespeare()
        expected["EmptyArray"] = [Any]()
        expected["EmptyDictionary"] = [String: Any]()
        let loaded = try load(PropertyListCorpusTests.rust + "/tests/data/binary.plist")
        #expect(PropertyListValueText.of(loaded) == PropertyListValueText.of(expected))
        // The largest number is whole as UInt64 (Foundation's NSNumber says -1 as Int64).
        #expect((loaded as? [String: Any])?["BiggestNumber"] as? UInt64 == 18_446_744_073_709_551_615)
    }

    @Test("xml-animals.plist and the OpenStep ascii-animals.plist load equal")
    func animals() throws {
        let xml = try text(PropertyListCorpusTests.rust + "/tests/data/xml-animals.plist")
        #expect(xml == PropertyListValueText.of([
            "AnimalColors": ["lamb": "black", "pig": "pink", "worm": "pink"],
            "AnimalSmells": ["lamb": "lambish", "pig": "piggish", "worm": "wormy"],
            "AnimalSounds": ["Lisa": "Why is the worm talking like a lamb?", "lamb": "baa", "pig": "oink", "worm": "baa"],
        ]))
        #expect(try text(PropertyListCorpusTests.rust + "/tests/data/ascii-animals.plist") == xml)
    }

    @Test("ascii-sample.plist: comments are skipped and 0.10 stays a string")
    func asciiSample() throws {
        #expect(try text(PropertyListCorpusTests.rust + "/tests/data/ascii-sample.plist") == PropertyListValueText.of([
            "KeyName1": "Value1", "AnotherKeyName": "Value2", "Something": ["ArrayItem1", "ArrayItem2", "ArrayItem3"],
            "Key4": "0.10", "KeyFive": ["Dictionary2Key1": "Something", "AnotherKey": "Somethingelse"],
        ]))
    }

    @Test("netnewswire.pbxproj, a real Xcode project in OpenStep text, loads")
    func xcodeProject() throws {
        let project = try #require(try load(PropertyListCorpusTests.rust + "/tests/data/netnewswire.pbxproj") as? [String: Any])
        #expect(project["archiveVersion"] as? String == "1")
        #expect(project["objectVersion"] as? String == "46")
        let objects = try #require(project["objects"] as? [String: Any])
        let root = try #require(project["rootObject"] as? String)
        #expect((objects[root] as? [String: Any])?["isa"] as? String == "PBXProject")
    }

    @Test("book.plist, with mixed tab and space indents, loads")
    func book() throws {
        let book = try #require(try load(PropertyListCorpusTests.rust + "/tests/data/book.plist") as? [String: Any])
        #expect(book["Title"] as? String == "Great Expectations")
        #expect(book["Author"] as? String == "Charles Dickens")
        #expect(book["CopiesSold"] as? Int == 123_456_789)
        #expect((book["Excerpt"] as? String)?.hasPrefix("Whether I should have made out") == true)
    }

    @Test("utf16_bplist.plist: UTF-16 strings, a star and a poem of 643 UTF-8 bytes")
    func utf16() throws {
        let loaded = try #require(try load(PropertyListCorpusTests.rust + "/tests/data/utf16_bplist.plist") as? [String: Any])
        #expect(loaded["name"] as? String == "\u{2605} or better")
        let poem = try #require(loaded["longText"] as? String)
        // rust-plist's "643" is Rust's String length: UTF-8 bytes (640 ASCII and the 3-byte star).
        #expect(poem.utf8.count == 643)
        #expect(poem.count == 641)
        #expect(poem.hasPrefix("The sun was shining on the sea,"))
        #expect(poem.hasSuffix("\u{2605}"))
    }

    @Test("binary_NSKeyedArchiver.plist: UIDs read as CF$UID dictionaries, as XML writes them")
    func keyedArchiver() throws {
        let path = PropertyListCorpusTests.rust + "/tests/data/binary_NSKeyedArchiver.plist"
        // NS.data is 103 bytes (after the marker 4F 10 67 at 0x7D) that an index set encoded; taken as stored.
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let loaded = try text(path)
        let expected = PropertyListValueText.of([
            "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["foundItems": ["CF$UID": 1]],
            "$objects": [
                "$null",
                ["$class": ["CF$UID": 4], "NSRangeCount": 42, "NSRangeData": ["CF$UID": 2]],
                ["$class": ["CF$UID": 3], "NS.data": Data(file[0x80..<(0x80 + 103)])],
                ["$classes": ["NSMutableData", "NSData", "NSObject"], "$classname": "NSMutableData"],
                ["$classes": ["NSMutableIndexSet", "NSIndexSet", "NSObject"], "$classname": "NSMutableIndexSet"],
            ] as [Any],
        ])
        #expect(loaded == expected)
    }

    @Test("binary_three_byte_integer_offset_table.plist: 3-byte offsets; a dictionary of 2199 under 'data'")
    func threeByteOffsets() throws {
        let loaded = try #require(try load(PropertyListCorpusTests.rust + "/tests/data/binary_three_byte_integer_offset_table.plist")
            as? [String: Any])
        #expect(loaded.keys.sorted() == ["data", "interfaceLanguages", "languageToPlatforms", "platforms"])
        #expect((loaded["data"] as? [String: Any])?.count == 2199)
    }

    @Test("The fuzzer's expect-ok files load", arguments: files(rust + "/fuzzer-inline", suffix: ".expect-ok.bplist"))
    func fuzzerOK(_ path: String) throws {
        let expected = path.contains("issue_20") ? "{}" : "{Test: \"1\"}"
        #expect(try text(path) == expected)
    }

    @Test("rust-plist's must-fail files are refused, each with its reason")
    func refusesRustMustFail() throws {
        let data = PropertyListCorpusTests.rust + "/tests/data/"
        let fuzz = PropertyListCorpusTests.rust + "/fuzzer-inline/"
        let expectations: [(String, PropertyListError)] = [
            (data + "xml_error.plist", .invalidXML(path: data + "xml_error.plist", line: 16,
                                                   reason: "the tag <ke is never closed")),
            (data + "xml_entity_error.plist", .invalidXML(path: data + "xml_entity_error.plist", line: 4,
                                                          reason: "text '&#32;&amp;\n' between the elements of <plist>")),
            (data + "binary_zero_offset_size.plist", .invalidBinary(path: data + "binary_zero_offset_size.plist",
                                                                    reason: "the trailer gives an offset size of 0 bytes (1 to 8 allowed)")),
            (data + "binary_circular_array.plist", .invalidBinary(path: data + "binary_circular_array.plist",
                                                                  reason: "the offset table (233 offsets of 1 bytes at 205) runs into the trailer")),
        ]
        for (path, error) in expectations {
            #expect(throws: error) { _ = try load(path) }
        }
        for path in PropertyListCorpusTests.files(fuzz, suffix: ".expect-err.bplist") {
            #expect(path.isEmpty == false)
            #expect { _ = try load(path) } throws: { error in
                guard case .invalidBinary(let failed, _) = error as? PropertyListError else { return false }
                return failed == path
            }
        }
    }

    @Test("cpython's Apple-generated XML and binary test data load equal to the expected JSON",
          arguments: ["apple_testdata.xml.plist", "apple_testdata.binary.plist"])
    func appleTestData(_ name: String) throws {
        let json = try Data(contentsOf: URL(fileURLWithPath: PropertyListCorpusTests.cpython + "/apple_testdata.expected.json"))
        let expected = try JSONDecoder().decode(PropertyListExpectedValue.self, from: json)
        #expect(try text("\(PropertyListCorpusTests.cpython)/\(name)") == expected.text)
        #expect(expected.text.contains("aBigInt2: uint:9223372036854775852"))
    }

    @Test("All 40 of cpython's invalid binary plists are refused as invalid binary", arguments: cpythonInvalidBinary)
    func refusesInvalidBinary(_ path: String) throws {
        #expect { _ = try load(path) } throws: { error in
            guard case .invalidBinary(let failed, let reason) = error as? PropertyListError else { return false }
            return failed == path && !reason.isEmpty
        }
    }

    @Test("All of cpython's invalid XML plists are refused", arguments: cpythonInvalidXML)
    func refusesInvalidXML(_ path: String) throws {
        #expect { _ = try load(path) } throws: { error in
            switch error as? PropertyListError {
            case .invalidXML(let failed, _, _), .unparseable(let failed, "XML", _): return failed == path
            default: return false
            }
        }
    }

    @Test("An XML plist declaring an entity is refused before parsing")
    func entityDeclaration() throws {
        let path = PropertyListCorpusTests.cpython + "/xml_with_entity_decl.expect-err.plist"
        #expect(throws: PropertyListError.entityDeclaration(path: path, line: 3)) { _ = try load(path) }
        #expect(PropertyListError.entityDeclaration(path: path, line: 3).description
            == "\(path):3: XML entity declarations are not supported (the file declares an <!ENTITY>)")
    }

    @Test("Every must-fail file of both corpora is refused, all of them together well within 2 s")
    func refusalsAreFast() throws {
        let start = ContinuousClock.now
        var refused = 0
        for path in PropertyListCorpusTests.mustFail {
            do {
                _ = try load(path)
            } catch {
                refused += 1
            }
        }
        let elapsed = ContinuousClock.now - start
        #expect(refused == PropertyListCorpusTests.mustFail.count)
        #expect(elapsed < .seconds(2), "took \(elapsed)")
    }
}
