import DossierCore
import DossierTestSupport
import Foundation
import Testing
@testable import DossierPhotos

/// The formats filed byte for byte: each recognised by its content (never its name), in the right
/// folder, dated by its metadata where it has any, else by its name or time.
@Suite("WebP, GIF, BMP, TIFF, raws, more videos and sound, filed as they are")
struct MoreFormatsTests {
    static let taken = "2019:04:05 06:07:08"

    static func exif(bigEndian: Bool = true, make: String? = "Dossier Test Camera", dng: Bool = false,
                     subIFDs: Bool = false) -> ExifFixture {
        var exif = ExifFixture()
        exif.bigEndian = bigEndian
        exif.make = make
        exif.dateTimeOriginal = taken
        exif.dngVersion = dng
        exif.subIFDs = subIFDs
        return exif
    }

    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> ($0 * 8) & 0xFF) } }
    static func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(value >> ($0 * 8) & 0xFF) } }

    /// A WebP of one lossless chunk and, after it, its EXIF chunk (where writers put it).
    static var webp: [UInt8] {
        let vp8l: [UInt8] = Array("VP8L".utf8) + le32(6) + [0x2F, 0x01, 0x00, 0x00, 0x00, 0x00]
        let exif = MoreFormatsTests.exif(bigEndian: false).tiff
        let exifChunk = Array("EXIF".utf8) + le32(exif.count) + exif + (exif.count % 2 == 1 ? [0] : [])
        let body = Array("WEBP".utf8) + vp8l + exifChunk
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    /// A RAF: its 84-byte header names the embedded JPEG (offset, length), which carries the EXIF.
    static func raf() throws -> [UInt8] {
        let jpeg = try TestJPEG.encode(.smooth(width: 16, height: 16), hSamp: 2, vSamp: 2, app1: exif().app1Payload)
        var header = Array("FUJIFILMCCD-RAW 0201FF393006".utf8)
        header += [UInt8](repeating: 0, count: 84 - header.count)
        header += be32(100) + be32(jpeg.count)
        header += [UInt8](repeating: 0, count: 100 - header.count)
        return header + jpeg + [UInt8](repeating: 0x5A, count: 300)
    }

    static func sound(_ head: [UInt8]) -> [UInt8] { head + (0..<600).map { UInt8($0 * 7 % 251) } }

    @Test("Each is recognised by its content and filed as it is, in its format, dated by its EXIF where it has one",
          arguments: [
              ("picture.webp", PhotoFormat.webp, CaptureDate.Origin.exifDateTimeOriginal),
              ("scan.tif", .tiff, .exifDateTimeOriginal),
              ("photo.dng", .dng, .exifDateTimeOriginal),
              ("DSC_0001.NEF", .nef, .exifDateTimeOriginal),
              ("DSC00001.ARW", .arw, .exifDateTimeOriginal),
              ("P1010001.ORF", .orf, .exifDateTimeOriginal),
              ("DSCF0001.RAF", .raf, .exifDateTimeOriginal),
          ])
    func imagesAndRawsWithExif(_ name: String, _ format: PhotoFormat, _ origin: CaptureDate.Origin) throws {
        let bytes: [UInt8]
        switch format {
        case .webp: bytes = MoreFormatsTests.webp
        case .tiff: bytes = MoreFormatsTests.exif().tiff
        case .dng: bytes = MoreFormatsTests.exif(dng: true).tiff
        case .nef: bytes = MoreFormatsTests.exif(make: "NIKON CORPORATION", subIFDs: true).tiff
        case .arw: bytes = MoreFormatsTests.exif(bigEndian: false, make: "SONY", subIFDs: true).tiff
        case .orf:
            let tiff = MoreFormatsTests.exif(bigEndian: false, make: "OLYMPUS IMAGING CORP.").tiff
            bytes = Array("IIRO".utf8) + Array(tiff.dropFirst(4))
        default: bytes = try MoreFormatsTests.raf()
        }
        let photo = try PhotoFiling.imported(bytes, path: "/dump/\(name)")
        #expect(photo.format == format)
        #expect(photo.captureDate.origin == origin)
        #expect(photo.captureDate.iso8601 == "2019-04-05T06:07:08")
        #expect(photo.content.digest == ContentDigest(of: bytes))
        #expect(photo.orientation == .up)
    }

    @Test("GIF, BMP, a CR2's and a CR3's start, videos and sounds are recognised by their first bytes, whatever their names")
    func recognisedByContent() throws {
        var cr3 = TestMovie()
        cr3.majorBrand = "crx "
        cr3.compatibleBrands = ["crx ", "isom"]
        let cr2 = [0x49, 0x49, 0x2A, 0x00] + MoreFormatsTests.le32(16) + Array("CR".utf8) + [2, 0] + [UInt8](repeating: 0, count: 40)
        let bmp = Array("BM".utf8) + MoreFormatsTests.le32(70) + [0, 0, 0, 0] + MoreFormatsTests.le32(54) + MoreFormatsTests.le32(40)
            + [UInt8](repeating: 0, count: 40)
        let ebml: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]
        let packets = (0..<4).flatMap { _ in [0x47] + [UInt8](repeating: 0x11, count: 187) }
        let cases: [([UInt8], PhotoFormat)] = [
            (Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x2C], .gif),
            (bmp, .bmp),
            (cr2, .cr2),
            (cr3.bytes, .cr3),
            (Array("RIFF".utf8) + MoreFormatsTests.le32(1000) + Array("AVI LIST".utf8) + [UInt8](repeating: 0, count: 40), .avi),
            (ebml + Array("matroska".utf8) + [UInt8](repeating: 0, count: 40), .mkv),
            (ebml + Array("webm".utf8) + [UInt8](repeating: 0, count: 40), .webm),
            (packets, .mts),
            (MoreFormatsTests.sound(Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 10]), .mp3),
            (MoreFormatsTests.sound([0xFF, 0xFB, 0x90, 0x64]), .mp3),
            (MoreFormatsTests.sound(Array("RIFF".utf8) + MoreFormatsTests.le32(1000) + Array("WAVEfmt ".utf8)), .wav),
            (MoreFormatsTests.sound([0xFF, 0xF1, 0x50, 0x80]), .aac),
            (MoreFormatsTests.sound(Array("OggS".utf8) + [0, 2]), .ogg),
            (MoreFormatsTests.sound(Array("fLaC".utf8) + [0, 0, 0, 34]), .flac),
        ]
        for (bytes, format) in cases {
            let photo = try PhotoFiling.imported(bytes, path: "/dump/IMG_20180101_010101.bin")
            #expect(photo.format == format, "\(format.displayName)")
            #expect(photo.captureDate.origin == .fileName, "\(format.displayName)")
            #expect(photo.content.digest == ContentDigest(of: bytes), "\(format.displayName)")
        }
    }

    @Test("A movie with no video track is audio (an M4A), dated by its own metadata; a QuickTime movie with no ftyp is a movie")
    func soundInAMovieContainerAndOldQuickTime() throws {
        var memo = TestMovie()
        memo.majorBrand = "M4A "
        memo.compatibleBrands = ["M4A ", "isom"]
        memo.hasVideo = false
        memo.quickTimeMetadata = [("com.apple.quicktime.creationdate", "2022-03-04T05:06:07+0900")]
        // M4A's own brand is sound: not a movie's, but the movie reader reads its dates.
        let m4a = try PhotoFiling.imported(memo.bytes, path: "/dump/New Recording.m4a")
        #expect(m4a.format == .m4a)
        #expect(m4a.captureDate.iso8601 == "2022-03-04T05:06:07+09:00")
        var isom = memo
        isom.majorBrand = "isom"
        isom.compatibleBrands = ["isom", "mp42"]
        let voice = try PhotoFiling.imported(isom.bytes, path: "/dump/voice.mp4")
        #expect(voice.format == .m4a)
        #expect(voice.format.folder == "audio")
        #expect(voice.captureDate.iso8601 == "2022-03-04T05:06:07+09:00")
        var old = TestMovie()
        old.quickTimeMetadata = [("com.apple.quicktime.creationdate", "2009-10-11T12:13:14+0100")]
        let withoutFileType = Array(old.bytes.dropFirst(Int(old.bytes[3])))
        #expect(withoutFileType.starts(with: [0, 0]) && Array(withoutFileType[4..<8]) == Array("moov".utf8))
        let movie = try PhotoFiling.imported(withoutFileType, path: "/dump/MVI_0001.MOV")
        #expect(movie.format == .quickTime)
        #expect(movie.captureDate.iso8601 == "2009-10-11T12:13:14+01:00")
    }
}

extension MoreFormatsTests {
    /// An ID3v2 text frame: its id, its size (syncsafe in v2.4), no flags, Latin-1, the text.
    static func id3Frame(_ id: String, _ text: String, version: UInt8) -> [UInt8] {
        let body = [0] + Array(text.utf8)
        let size = version == 4 ? [0, 0, 0, UInt8(body.count)] : [0, 0, 0, UInt8(body.count)]
        return Array(id.utf8) + size + [0, 0] + body
    }

    static func id3(_ frames: [UInt8], version: UInt8) -> [UInt8] {
        Array("ID3".utf8) + [version, 0, 0, 0, 0, 0, UInt8(frames.count)] + frames + [0xFF, 0xFB, 0x90, 0x64]
            + [UInt8](repeating: 0x55, count: 400)
    }

    static func riffChunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + le32(body.count) + body + (body.count % 2 == 1 ? [0] : [])
    }

    @Test("Sound and video containers are dated by their own headers: ID3 (v2.4 TDRC, v2.3 TYER+TDAT+TIME), RIFF, Matroska")
    func containerDates() throws {
        let v24 = MoreFormatsTests.id3(MoreFormatsTests.id3Frame("TDRC", "2019-05-04T10:11:12", version: 4), version: 4)
        let v23 = MoreFormatsTests.id3(MoreFormatsTests.id3Frame("TYER", "2018", version: 3)
            + MoreFormatsTests.id3Frame("TDAT", "0403", version: 3) + MoreFormatsTests.id3Frame("TIME", "0506", version: 3), version: 3)
        let yearOnly = MoreFormatsTests.id3(MoreFormatsTests.id3Frame("TDRC", "2017", version: 4), version: 4)
        let idit = MoreFormatsTests.riffChunk("IDIT", Array("Mon Mar 10 15:04:43 2008\n".utf8) + [0])
        let avi = Array("RIFF".utf8) + MoreFormatsTests.le32(4 + 12 + 8 + idit.count + 100) + Array("AVI ".utf8)
            + MoreFormatsTests.riffChunk("LIST", Array("hdrl".utf8) + idit) + MoreFormatsTests.riffChunk("JUNK", [UInt8](repeating: 0, count: 100))
        let info = MoreFormatsTests.riffChunk("LIST", Array("INFO".utf8) + MoreFormatsTests.riffChunk("ICRD", Array("2016-07-08".utf8) + [0]))
        let wavBody = Array("WAVE".utf8) + MoreFormatsTests.riffChunk("fmt ", [UInt8](repeating: 1, count: 16)) + info
            + MoreFormatsTests.riffChunk("data", [UInt8](repeating: 0x80, count: 64))
        let wav = Array("RIFF".utf8) + MoreFormatsTests.le32(wavBody.count) + wavBody
        // 2021-01-01T00:00:00Z is 631,152,000 s after 2001-01-01.
        let nanoseconds = 631_152_000 * 1_000_000_000
        let dateUTC: [UInt8] = [0x44, 0x61, 0x88] + (0..<8).reversed().map { UInt8(nanoseconds >> ($0 * 8) & 0xFF) }
        let infoElement: [UInt8] = [0x15, 0x49, 0xA9, 0x66, 0x80 | UInt8(dateUTC.count)] + dateUTC
        let ebml: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x84, 0x42, 0x82, 0x81, 0x01]
        let mkv = ebml + [0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + infoElement
            + [0x1F, 0x43, 0xB6, 0x75, 0x88] + [UInt8](repeating: 0x11, count: 8)
        let cases: [([UInt8], String, PhotoFormat, CaptureDate.Origin, String)] = [
            (v24, "a.mp3", .mp3, .id3RecordingTime, "2019-05-04T10:11:12"),
            (v23, "b.mp3", .mp3, .id3RecordingTime, "2018-03-04T05:06:00"),
            (yearOnly, "c.mp3", .mp3, .fileModificationTime, ""),
            (avi, "d.avi", .avi, .riffDate, "2008-03-10T15:04:43"),
            (wav, "e.wav", .wav, .riffDate, "2016-07-08T00:00:00"),
            // An instant, on the wall clock of the context's time zone (the machine's).
            (mkv, "f.mkv", .mkv, .matroskaDate,
             CaptureDate(Date(timeIntervalSince1970: 1_609_459_200), in: .current, origin: .matroskaDate).iso8601),
        ]
        for (bytes, name, format, origin, taken) in cases {
            let photo = try PhotoFiling.imported(bytes, path: "/dump/\(name)")
            #expect(photo.format == format, "\(name)")
            #expect(photo.captureDate.origin == origin, "\(name)")
            if !taken.isEmpty { #expect(photo.captureDate.iso8601 == taken, "\(name)") }
        }
    }

    @Test("Every cut and many random changes of those headers are read within their bytes: no crash, at most no date")
    func containerDatesOfDamagedHeaders() {
        let nanoseconds = 631_152_000 * 1_000_000_000
        let dateUTC: [UInt8] = [0x44, 0x61, 0x88] + (0..<8).reversed().map { UInt8(nanoseconds >> ($0 * 8) & 0xFF) }
        let mkv: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x84, 0x42, 0x82, 0x81, 0x01, 0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF,
                            0xFF, 0xFF, 0xFF, 0xFF, 0x15, 0x49, 0xA9, 0x66, 0x80 | UInt8(dateUTC.count)] + dateUTC
        let mp3 = MoreFormatsTests.id3(MoreFormatsTests.id3Frame("TDRC", "2019-05-04T10:11:12", version: 4), version: 4)
        let info = MoreFormatsTests.riffChunk("LIST", Array("INFO".utf8) + MoreFormatsTests.riffChunk("ICRD", Array("2016-07-08".utf8)))
        let wav = Array("RIFF".utf8) + MoreFormatsTests.le32(4 + info.count) + Array("WAVE".utf8) + info
        var generator = TestSeed().generator
        for sample in [mkv, mp3, wav, MoreFormatsTests.mts(m2ts: false), MoreFormatsTests.mts(m2ts: true)] {
            for length in 0...sample.count { _ = ContainerDates.of(Array(sample.prefix(length)), timeZone: .current) }
            for _ in 0..<2_000 {
                var damaged = sample
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                _ = ContainerDates.of(damaged, timeZone: .current)
            }
        }
    }

    /// An ISO box: its big-endian size (counting its own eight bytes), its type, its payload.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(payload.count + 8) + Array(type.utf8) + payload }

    /// A CR3's start as Canon's cameras write it: `ftyp crx `, then in `moov` Canon's `uuid` box
    /// with IFD0 (`CMT1`) and the EXIF IFD (`CMT2`) as TIFF structures of their own.
    static func cr3(dateTimeOriginal: String, offset: String?) -> [UInt8] {
        var ifd0 = ExifFixture()
        ifd0.make = "Canon"
        ifd0.dateTimeOriginal = nil
        var exifIFD: [TestTIFF.Entry] = [.ascii(0x9003, dateTimeOriginal)]
        if let offset { exifIFD.append(.ascii(0x9011, offset)) }
        let cmt2 = TestTIFF.file(ifdCount: 1, blobs: []) { _ in [exifIFD] }
        let canon: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]
        let uuid = box("uuid", canon + box("CNCV", Array("CanonCR3_001/01.09.00/00.00.00".utf8)) + box("CMT1", ifd0.tiff)
            + box("CMT2", cmt2))
        return box("ftyp", Array("crx ".utf8) + be32(1) + Array("crx isom".utf8)) + box("moov", uuid)
            + box("mdat", [UInt8](repeating: 0x11, count: 256))
    }

    @Test("A Canon CR3 is dated by the DateTimeOriginal (and its offset) in its CMT2 box, and filed as a raw")
    func cr3Dates() throws {
        let bytes = MoreFormatsTests.cr3(dateTimeOriginal: "2020:02:03 04:05:06", offset: "+09:00")
        let photo = try PhotoFiling.imported(bytes, path: "/dump/IMG_0001.CR3")
        #expect(photo.format == .cr3)
        #expect(photo.captureDate.origin == .exifDateTimeOriginal)
        #expect(photo.captureDate.iso8601 == "2020-02-03T04:05:06+09:00")
        // Without it, the next source decides: here the file's time.
        let undated = try PhotoFiling.imported(MoreFormatsTests.cr3(dateTimeOriginal: "0000:00:00 00:00:00", offset: nil),
                                               path: "/dump/IMG_0002.CR3")
        #expect(undated.captureDate.origin == .fileModificationTime)
    }

    /// An AVCHD camcorder's MTS (an M2TS with `m2ts`: 192-byte packets, a 4-byte time first): a
    /// table packet, then the video's packets (PID 0x1011) with a sound packet (PID 0x1100)
    /// between them. The video's SEI carries `MDPM` for 2021-07-08 00:00:02, cut by the first
    /// video packet's end, its `00 00 02` written with H.264's emulation-prevention byte.
    static func mts(m2ts: Bool, month: UInt8 = 0x07, hour: UInt8 = 0x00) -> [UInt8] {
        let sei: [UInt8] = [0, 0, 0, 1, 0x06, 0x05, 0x40] + [0x17, 0xEE, 0x8C, 0x60, 0xF8, 0x4D, 0x11, 0xD9, 0x8C, 0xD6, 0x08, 0x00,
                                                            0x20, 0x0C, 0x9A, 0x66]
            + Array("MDPM".utf8) + [3, 0x18, 0x09, 0x20, 0x21, month, 0x19, 0x08, hour, 0x00, 0x03, 0x02, 0x1A, 0x01, 0x02, 0x03, 0x04]
        let pes: [UInt8] = [0, 0, 1, 0xE0, 0, 0, 0x80, 0x80, 0x05, 0x21, 0x00, 0x01, 0x00, 0x01]
        let filler = [UInt8](repeating: 0x2A, count: 184 - pes.count - 30)
        let video = pes + [0, 0, 0, 1, 0x09, 0xF0] + filler + sei + [UInt8](repeating: 0x37, count: 200)
        func packet(_ pid: Int, _ payload: ArraySlice<UInt8>, counter: Int) -> [UInt8] {
            var bytes: [UInt8] = [0x47, UInt8(pid >> 8), UInt8(pid & 0xFF)]
            if payload.count >= 184 {
                bytes += [0x10 | UInt8(counter & 0xF)] + payload.prefix(184)
            } else {
                // Stuffed by an adaptation field to 188 bytes.
                let stuffing = 183 - payload.count
                bytes += [0x30 | UInt8(counter & 0xF), UInt8(stuffing)] + (stuffing > 0 ? [0x00] : [])
                    + [UInt8](repeating: 0xFF, count: max(stuffing - 1, 0)) + payload
            }
            return (m2ts ? [0x00, 0x01, 0x02, 0x03] : []) + bytes
        }
        var bytes = packet(0, ArraySlice([UInt8](repeating: 0xFF, count: 184)), counter: 0)
        bytes += packet(0x1011, video[0..<184], counter: 0)
        bytes += packet(0x1100, ArraySlice([UInt8](repeating: 0x55, count: 184)), counter: 0)
        bytes += packet(0x1011, video[184..<368], counter: 1)
        bytes += packet(0x1011, video[368...], counter: 2)
        return bytes
    }

    @Test("An AVCHD camcorder's MTS and M2TS are dated by the MDPM in their video, read across packets")
    func avchdDates() throws {
        for m2ts in [false, true] {
            let bytes = MoreFormatsTests.mts(m2ts: m2ts)
            let video = try PhotoFiling.imported(bytes, path: "/dump/00001.MTS")
            #expect(video.format == .mts)
            #expect(video.captureDate.origin == .avchdDate)
            #expect(video.captureDate.iso8601 == "2021-07-08T00:00:02")
        }
        // The same packets without MDPM's date entries: no date from them.
        let undated = MoreFormatsTests.mts(m2ts: false).map { $0 == 0x18 ? 0x28 : $0 }
        #expect(try PhotoFiling.imported(undated, path: "/dump/00002.MTS").captureDate.origin == .fileModificationTime)
    }

    @Test("An MDPM date that is no date (month 13, hour 25) is passed over and said, the next source dating the video")
    func avchdDateThatIsNoneIsSaid() throws {
        // With an hour of 25 the `03` before the seconds follows one zero, not two: it is no
        // emulation-prevention byte but the seconds themselves, and `02` lies past the entry.
        for (month, hour, written) in [(UInt8(0x13), UInt8(0x00), "2021-13-08 00:00:02"), (0x07, 0x25, "2021-07-08 25:00:03")] {
            let video = try PhotoFiling.imported(MoreFormatsTests.mts(m2ts: false, month: month, hour: hour), path: "/dump/00003.MTS")
            #expect(video.captureDate.origin == .fileModificationTime)
            #expect(video.warnings.contains("its AVCHD recording date (\"\(written)\") is no date: dated by its file's modification time"),
                    "\(video.warnings)")
        }
        let named = try PhotoFiling.imported(MoreFormatsTests.mts(m2ts: true, month: 0x13), path: "/dump/VID_20190405_101112.MTS")
        #expect(named.captureDate.origin == .fileName)
        #expect(named.warnings.contains { $0.hasPrefix("its AVCHD recording date (\"2021-13-08 00:00:02\") is no date: dated by its ") })
    }
}
