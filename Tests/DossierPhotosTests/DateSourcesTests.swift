import DossierCore
import DossierTestSupport
import Foundation
import Testing
@testable import DossierPhotos

/// Every place a camera, phone or tool writes when a photo was taken, in the documented order
/// (docs/photos.md), and dates that cannot be true passed over with a word.
@Suite("Where a photo's date comes from")
struct DateSourcesTests {
    /// A JPEG with `exif` in its APP1 segment and, after it, an XMP packet (APP1) and Photoshop
    /// resources holding IPTC datasets (APP13), each when given.
    static func jpeg(exif: ExifFixture?, xmp: String? = nil, iptc: [(UInt8, String)] = []) throws -> [UInt8] {
        let plain = try TestJPEG.encode(.smooth(width: 16, height: 16), hSamp: 2, vSamp: 2, app1: exif?.app1Payload)
        var segments: [UInt8] = []
        if let xmp { segments += segment(0xE1, JPEGSegments.xmpPrefix + Array(xmp.utf8)) }
        if !iptc.isEmpty {
            var datasets: [UInt8] = []
            for (dataset, value) in iptc {
                datasets += [0x1C, 2, dataset, UInt8(value.utf8.count >> 8), UInt8(value.utf8.count & 0xFF)] + Array(value.utf8)
            }
            let size = datasets.count
            let resource = Array("8BIM".utf8) + [0x04, 0x04, 0, 0]
                + [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                + datasets + (size % 2 == 1 ? [0] : [])
            segments += segment(0xED, JPEGSegments.photoshopPrefix + resource)
        }
        // After SOI and the EXIF segment, where writers put them.
        let cut = exif == nil ? 2 : 2 + 2 + (Int(plain[4]) << 8 | Int(plain[5]))
        return Array(plain[..<cut]) + segments + Array(plain[cut...])
    }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    static func exif(original: String? = nil, digitized: String? = nil, dateTime: String? = nil) -> ExifFixture {
        var exif = ExifFixture()
        exif.dateTimeOriginal = original
        exif.dateTimeDigitized = digitized
        exif.dateTime = dateTime
        return exif
    }

    /// The fixtures' mtime (`PhotoFiling`): 2023-11-14T22:13:20 UTC.
    static let mtimeYear = 2023

    @Test("DateTimeDigitized alone dates the photo, with its offset (phockup expects 2017-01-01 01:01:01, not the mtime)")
    func dateTimeDigitizedAlone() throws {
        var exif = DateSourcesTests.exif(digitized: "2017:01:01 01:01:01")
        exif.offsetTimeDigitized = "+09:00"
        let photo = try PhotoFiling.imported(try DateSourcesTests.jpeg(exif: exif))
        #expect(photo.captureDate.origin == .exifDateTimeDigitized)
        #expect(photo.captureDate.iso8601 == "2017-01-01T01:01:01+09:00")
        #expect(photo.warnings.isEmpty)
    }

    @Test("XMP's dates are read as attributes and as elements, with their offsets; a day alone is its midnight", arguments: [
        (#"<rdf:Description exif:DateTimeOriginal="2019-03-04T05:06:07+01:00"/>"#, CaptureDate.Origin.xmpDateTimeOriginal,
         "2019-03-04T05:06:07+01:00"),
        ("<rdf:Description><xmp:CreateDate>2018-02-03T04:05:06.789Z</xmp:CreateDate></rdf:Description>", .xmpCreateDate,
         "2018-02-03T04:05:06+00:00"),
        ("<rdf:Description>\n <xmp:CreateDate>\n  <rdf:Seq><rdf:li>2018-02-03T04:05</rdf:li></rdf:Seq>\n </xmp:CreateDate>",
         .xmpCreateDate, "2018-02-03T04:05:00"),
        (#"<rdf:Description photoshop:DateCreated='2016-07-08'/>"#, .xmpPhotoshopDateCreated, "2016-07-08T00:00:00"),
    ])
    func xmpDates(_ packet: String, _ origin: CaptureDate.Origin, _ expected: String) throws {
        let xmp = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF>"# + packet + "</rdf:RDF></x:xmpmeta>"
        let photo = try PhotoFiling.imported(try DateSourcesTests.jpeg(exif: nil, xmp: xmp))
        #expect(photo.captureDate.origin == origin)
        #expect(photo.captureDate.iso8601 == expected)
    }

    @Test("An XMP property whose value is not a date, or a longer name that starts like one, is passed over")
    func xmpNotADate() throws {
        let xmp = #"<rdf:Description xmp:CreateDateX="2001-01-01T00:00:00" xmp:CreateDate="yesterday"/>"#
        let photo = try PhotoFiling.imported(try DateSourcesTests.jpeg(exif: nil, xmp: xmp))
        #expect(photo.captureDate.origin == .fileModificationTime)
    }

    @Test("IPTC's DateCreated and TimeCreated, with its offset, date a photo from a scanner or a newsroom tool")
    func iptcDate() throws {
        let photo = try PhotoFiling.imported(try DateSourcesTests.jpeg(exif: nil, iptc: [(55, "20150607"), (60, "080910+0530")]))
        #expect(photo.captureDate.origin == .iptcDateCreated)
        #expect(photo.captureDate.iso8601 == "2015-06-07T08:09:10+05:30")
        let dayOnly = try PhotoFiling.imported(try DateSourcesTests.jpeg(exif: nil, iptc: [(55, "20150607")]))
        #expect(dayOnly.captureDate.iso8601 == "2015-06-07T00:00:00")
    }

    @Test("The sources are tried in the documented order: each is used only when those before it are missing")
    func order() throws {
        let xmp = #"<rdf:Description xmp:CreateDate="2013-01-01T00:00:03"/>"#
        let iptc: [(UInt8, String)] = [(55, "20140101"), (60, "000004")]
        let all = (original: "2011:01:01 00:00:01", digitized: "2012:01:01 00:00:02", dateTime: "2015:01:01 00:00:05")
        let cases: [(ExifFixture?, String?, [(UInt8, String)], String, CaptureDate.Origin)] = [
            (DateSourcesTests.exif(original: all.original, digitized: all.digitized, dateTime: all.dateTime), xmp, iptc,
             "IMG_20160101_000006.jpg", .exifDateTimeOriginal),
            (DateSourcesTests.exif(digitized: all.digitized, dateTime: all.dateTime), xmp, iptc, "IMG_20160101_000006.jpg",
             .exifDateTimeDigitized),
            (DateSourcesTests.exif(dateTime: all.dateTime), xmp, iptc, "IMG_20160101_000006.jpg", .xmpCreateDate),
            (DateSourcesTests.exif(dateTime: all.dateTime), nil, iptc, "IMG_20160101_000006.jpg", .iptcDateCreated),
            (DateSourcesTests.exif(dateTime: all.dateTime), nil, [], "IMG_20160101_000006.jpg", .exifDateTime),
            (nil, nil, [], "IMG_20160101_000006.jpg", .fileName),
            (nil, nil, [], "IMG_0001.jpg", .fileModificationTime),
        ]
        let expectedYears: [CaptureDate.Origin: Int] = [
            .exifDateTimeOriginal: 2011, .exifDateTimeDigitized: 2012, .xmpCreateDate: 2013, .iptcDateCreated: 2014,
            .exifDateTime: 2015, .fileName: 2016, .fileModificationTime: DateSourcesTests.mtimeYear,
        ]
        for (exif, xmp, iptc, name, origin) in cases {
            let photo = try PhotoFiling.imported(try DateSourcesTests.jpeg(exif: exif, xmp: xmp, iptc: iptc), path: "/dump/\(name)")
            #expect(photo.captureDate.origin == origin, "\(name) \(origin)")
            #expect(photo.captureDate.dateTime.year == expectedYears[origin], "\(origin)")
        }
    }

    @Test("A date before 1826 or after next year is not trusted: the next source decides, and a warning says why",
          arguments: ["1800:01:01 00:00:00", "9999:12:31 23:59:59", "\(Calendar.current.component(.year, from: Date()) + 2):01:01 00:00:00"])
    func implausibleDatesPassedOver(_ original: String) throws {
        let photo = try PhotoFiling.imported(try DateSourcesTests.jpeg(exif: DateSourcesTests.exif(original: original,
                                                                                             digitized: "2017:01:01 01:01:01")))
        #expect(photo.captureDate.origin == .exifDateTimeDigitized)
        let nextYear = Calendar.current.component(.year, from: Date()) + 1
        let shown = original.replacingOccurrences(of: ":", with: "-", options: [], range: original.range(of: "^\\d{4}:\\d\\d:", options: .regularExpression))
            .replacingOccurrences(of: " ", with: "T")
        #expect(photo.warnings == ["its EXIF DateTimeOriginal (\(shown)) is outside the years 1826 to \(nextYear): dated by its EXIF DateTimeDigitized"])
    }

    @Test("A date written that is none (February 30th, a 13th month) is passed over with a word; a clock never set says nothing")
    func datesThatAreNone() throws {
        var exif = ExifFixture()
        exif.dateTimeOriginal = "2020:02:30 10:00:00"
        exif.dateTimeDigitized = "2020:13:01 10:00:00"
        exif.dateTime = "2020:02:03 04:05:06"
        let photo = try PhotoFiling.imported(try DateSourcesTests.jpeg(exif: exif))
        #expect(photo.captureDate.origin == .exifDateTime)
        #expect(photo.warnings == ["its EXIF DateTimeOriginal (\"2020:02:30 10:00:00\") and its EXIF DateTimeDigitized "
            + "(\"2020:13:01 10:00:00\") are no date: dated by its EXIF DateTime"])
        exif.dateTimeOriginal = "0000:00:00 00:00:00"
        exif.dateTimeDigitized = "    :  :     :  :  "
        #expect(try PhotoFiling.imported(try DateSourcesTests.jpeg(exif: exif)).warnings.isEmpty)
    }

    @Test("Dates in the names phones, messengers and tools give", arguments: [
        ("IMG_20170101_010101.jpg", "2017-01-01T01:01:01"),
        ("PXL_20230405_101112345.jpg", "2023-04-05T10:11:12"),
        ("Screenshot_2020-01-30-09-57-18.png", "2020-01-30T09:57:18"),
        ("IMG-20200130-WA0001.jpg", "2020-01-30T00:00:00"),
        ("telegram_2020-01-30_09-57-18.jpg", "2020-01-30T09:57:18"),
        ("date_20180101_010101.jpg", "2018-01-01T01:01:01"),
        ("VID_20191231_235959.mp4", "2019-12-31T23:59:59"),
        ("holiday 2019.06.15.jpg", "2019-06-15T00:00:00"),
        ("20210314153000.jpg", "2021-03-14T15:30:00"),
    ])
    func fileNameDates(_ name: String, _ expected: String) {
        let date = FileNameDate.captureDate(in: name)
        #expect(date?.origin == .fileName)
        #expect(date?.iso8601 == expected)
    }

    @Test("Names whose digits are not a date give none", arguments: [
        "DSC_1234.JPG", "IMG_0712.HEIC", "1920x1080.png", "IMG_123456789.jpg", "P1010001.JPG", "scan 2019.jpg",
        "IMG_20171301_010101.jpg", "2020-01_30.jpg", "IMG_20170230_000000.jpg",
    ])
    func fileNamesWithoutDates(_ name: String) {
        #expect(FileNameDate.captureDate(in: name) == nil)
    }

    @Test("A movie dated 9999-12-31, 1800 or year -999 by its metadata is dated by the next source, never filed under that year",
          arguments: ["9999-12-31T23:59:59Z", "1800-01-01T00:00:00Z", "-999-01-01T00:00:00Z"])
    func implausibleMovieDates(_ text: String) throws {
        var movie = TestMovie()
        movie.quickTimeMetadata = [("com.apple.quicktime.creationdate", text)]
        let facts = try MovieFacts(reading: movie.bytes)
        let source = SourceFile(path: "/dump/VID_20191231_235959.mp4", size: 1, modificationTime: 1_700_000_000_000_000_000)
        let (date, _) = MovieHandler.captureDate(facts, source: source, timeZone: TimeZone(identifier: "UTC")!)
        #expect(date.origin == .fileName)
        #expect(date.iso8601 == "2019-12-31T23:59:59")
    }

    @Test("A PNG's XMP (an iTXt chunk keyed XML:com.adobe.xmp, also compressed) dates it before its tIME",
          arguments: [false, true])
    func pngXMP(compressed: Bool) throws {
        let format = TestPNG.Format(colorType: 2, bitDepth: 8, interlaced: false)
        let plain = try TestPNG.encode(TestPNG.samples(width: 8, height: 8, format: format), format: format)
        let xmp = Array(#"<x:xmpmeta><rdf:Description xmp:CreateDate="2016-05-06T07:08:09"/></x:xmpmeta>"#.utf8)
        let packet = Array("XML:com.adobe.xmp".utf8) + [0, compressed ? 1 : 0, 0, 0, 0]
            + (compressed ? DateSourcesTests.deflated(xmp) : xmp)
        let length = [UInt8(packet.count >> 24 & 0xFF), UInt8(packet.count >> 16 & 0xFF), UInt8(packet.count >> 8 & 0xFF),
                      UInt8(packet.count & 0xFF)]
        let crc = CRC32.checksum(Array("iTXt".utf8) + packet)
        let chunk = length + Array("iTXt".utf8) + packet
            + [UInt8(crc >> 24 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        // After the signature and IHDR (8 + 25 bytes).
        let png = Array(plain[..<33]) + chunk + Array(plain[33...])
        let photo = try PhotoFiling.imported(png)
        #expect(photo.captureDate.origin == .xmpCreateDate)
        #expect(photo.captureDate.iso8601 == "2016-05-06T07:08:09")
        #expect(photo.warnings.isEmpty, "\(photo.warnings)")
    }

    /// Bytes in the zlib format compressed text chunks use: a header, one stored deflate block
    /// (at most 65,535 bytes), and the Adler-32 of the bytes.
    static func deflated(_ bytes: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let length = UInt16(bytes.count), adler = b << 16 | a
        return [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)] + bytes
            + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    @Test("A HEIF's XMP item (mime, application/rdf+xml) dates it when its EXIF does not")
    func heifXMP() throws {
        // libheif's example from GIMP: XMP with no date in it, and no EXIF. One of its properties
        // is made a CreateDate of the same length, so every offset in the file holds.
        var bytes = try Corpora.bytes("heif/libheif-examples/tests/data/rainbow-451x461.heic")
        let undated = try PhotoFiling.imported(bytes, path: "/dump/rainbow.heic")
        #expect(undated.captureDate.origin == .fileModificationTime)
        let property = Array(#"xmpMM:OriginalDocumentID="xmp.did:5d64ede4-549b-4914-b6c4-ec76204b089d""#.utf8)
        var created = Array(#"xmp:CreateDate="2024-11-25T11:46:25+01:00""#.utf8)
        created += [UInt8](repeating: 0x20, count: property.count - created.count)
        let at = try #require(bytes.firstRange(of: property))
        bytes.replaceSubrange(at, with: created)
        let photo = try PhotoFiling.imported(bytes, path: "/dump/rainbow.heic")
        #expect(photo.captureDate.origin == .xmpCreateDate)
        #expect(photo.captureDate.iso8601 == "2024-11-25T11:46:25+01:00")
    }
}
