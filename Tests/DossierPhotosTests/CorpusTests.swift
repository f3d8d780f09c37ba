import DossierCore
import DossierTestSupport
import Foundation
import Testing
@testable import DossierPhotos

@Suite("Public corpora", SharedCorpora.required)
struct CorpusTests {
    @Test("Every exif-orientation-examples file is filed upright, the same picture, tagged 1 or untagged",
          arguments: ["Landscape", "Portrait"])
    func orientationExamples(_ shape: String) throws {
        let folder = "orientation/exif-orientation-examples"
        let reference = try TestJPEG.decode(try PhotoFiling.upright(try Corpora.bytes("\(folder)/\(shape)_1.jpg")).bytes)
        #expect((reference.width, reference.height) == (shape == "Landscape" ? (1800, 1200) : (1200, 1800)))
        for number in 0...8 {
            let source = try Corpora.bytes("\(folder)/\(shape)_\(number).jpg")
            let photo = try PhotoFiling.upright(source)
            let picture = try TestJPEG.decode(photo.bytes)
            #expect((picture.width, picture.height) == (reference.width, reference.height), "\(shape)_\(number)")
            // Exactly the stored picture turned per its tag (0 counts as 1)...
            let turned = try TestJPEG.decode(source).turnedUpright(for: max(number, 1))
            let exactness = picture.psnr(against: turned)
            #expect(exactness >= 40, "\(shape)_\(number): PSNR \(exactness) dB against its own pixels turned")
            // ...and the same picture as the upright file. Each file is its own encode of it, so they
            // differ by about 29 dB; a wrong turn scores under 10 dB.
            let likeness = picture.psnr(against: reference)
            #expect(likeness >= 25, "\(shape)_\(number): PSNR \(likeness) dB against \(shape)_1")
            let orientation = ExifInspector(jpeg: photo.bytes)?.orientation
            #expect(orientation == nil || orientation == 1, "\(shape)_\(number)")
        }
    }

    static let pngSuite = Corpora.files(under: "png/pngsuite", extensions: ["png"])

    @Test("Every valid PngSuite file imports with its bit depth and colour type kept")
    func pngSuiteValidFiles() throws {
        let valid = CorpusTests.pngSuite.filter { !($0 as NSString).lastPathComponent.hasPrefix("x") }
        #expect(valid.count == 162)  // 161 test images and the suite's logo, PngSuite.png
        for path in valid {
            let source = try Corpora.bytes(path)
            let photo = try PhotoFiling.upright(source)
            let before = try PNGCodec.inspect(source)
            let after = try PNGCodec.inspect(photo.bytes)
            #expect(after.bitDepth == before.bitDepth && after.colorType == before.colorType, "\(path)")
            #expect(try TestPNG.decode(photo.bytes).picture == TestPNG.decode(source).picture, "\(path)")
        }
    }

    @Test("Each of the 14 corrupt PngSuite files is reported failed with libpng's reason")
    func pngSuiteCorruptFiles() throws {
        let corrupt = CorpusTests.pngSuite.filter { ($0 as NSString).lastPathComponent.hasPrefix("x") }
        #expect(corrupt.count == 14)
        for path in corrupt {
            do {
                _ = try PhotoFiling.upright(try Corpora.bytes(path))
                Issue.record("\(path) was accepted")
            } catch let error as PhotoError {
                guard case .corrupt(let format, let message) = error else {
                    Issue.record("\(path): \(error)")
                    continue
                }
                #expect(format == "PNG" && !message.isEmpty, "\(path)")
            }
        }
    }

    @Test("libpng's crashers fail cleanly")
    func pngCrashers() throws {
        let crashers = Corpora.files(under: "png/libpng-contrib/contrib/testpngs/crashers", extensions: ["png"])
        #expect(crashers.count == 23)
        for path in crashers {
            #expect(throws: PhotoError.self, "\(path)") { try PhotoFiling.upright(try Corpora.bytes(path)) }
        }
    }

    @Test("libpng's own test images all import")
    func pngContribImages() throws {
        let images = Corpora.files(under: "png/libpng-contrib", extensions: ["png"]).filter { !$0.contains("/crashers/") }
        #expect(images.count > 150)
        for path in images {
            #expect(throws: Never.self, "\(path)") { try PhotoFiling.upright(try Corpora.bytes(path)) }
        }
    }

    @Test("Every corpus JPEG and PNG taken as a large photo (through scratch files) comes out byte for byte as in memory, or fails alike")
    func largePhotoPathMatchesMemory() throws {
        let files = Corpora.files(under: "jpeg-corrupt", extensions: ["jpg", "jpeg"])
            + Corpora.files(under: "exif", extensions: ["jpg", "jpeg"])
            + Corpora.files(under: "orientation", extensions: ["jpg", "jpeg", "png"])
            + Corpora.files(under: "png", extensions: ["png"])
        #expect(files.count > 300)
        var compared = 0
        for path in files {
            let source = try Corpora.bytes(path)
            let inMemory = Result { try PhotoFiling.upright(source).bytes }
            let throughFiles = Result { try PhotoFiling.upright(source, asLarge: true).bytes }
            switch (inMemory, throughFiles) {
            case (.success(let expected), .success(let got)):
                #expect(got == expected, "\(path)")
                compared += 1
            case (.failure(let expected), .failure(let got)):
                #expect("\(got)" == "\(expected)", "\(path)")
            default:
                Issue.record("\(path): in memory \(inMemory), through files \(throughFiles)")
            }
        }
        #expect(compared > 200)
    }

    @Test("No corrupt or unusual JPEG crashes or hangs: each imports or fails with the decoder's message")
    func corruptJPEGs() throws {
        let files = Corpora.files(under: "jpeg-corrupt", extensions: ["jpg", "jpeg"])
        #expect(files.count > 140)
        var imported = 0
        for path in files {
            do {
                let photo = try PhotoFiling.upright(try Corpora.bytes(path))
                _ = try JPEGCodec.info(photo.bytes)
                imported += 1
            } catch let error as PhotoError {
                #expect(!error.description.hasSuffix(": "), "\(path)")
            } catch is PhotoFiling.NotAPhoto {
                // Zero-byte and 4-byte files are not recognised as JPEG at all: skipped.
            }
        }
        #expect(imported >= 36)
    }

    /// exif-py's dump of every sample: `Opening: <path>` then lines like `EXIF DateTimeOriginal
    /// (ASCII): <value>`; the values of one tag, by sample.
    static func expected(_ tag: String) throws -> [String: String] {
        let dump = try String(contentsOf: Corpora.url("exif/exif-samples/dump"), encoding: .utf8)
        var current: String?
        var values: [String: String] = [:]
        let prefix = "EXIF \(tag) (ASCII): "
        for line in dump.split(separator: "\n") {
            if line.hasPrefix("Opening: exif-samples-master/") {
                current = String(line.dropFirst("Opening: exif-samples-master/".count))
            } else if line.hasPrefix(prefix), let current {
                values[current] = String(line.dropFirst(prefix.count))
            }
        }
        return values
    }

    @Test("Camera JPEGs import with their DateTimeOriginal and its OffsetTimeOriginal; broken EXIF never stops a photo")
    func exifSamples() throws {
        let expected = try CorpusTests.expected("DateTimeOriginal")
        let offsets = try CorpusTests.expected("OffsetTimeOriginal")
        let files = Corpora.files(under: "exif/exif-samples/jpg", extensions: ["jpg", "jpeg"])
        #expect(files.count > 50)
        var checkedDates = 0
        var checkedOffsets = 0
        for path in files {
            let name = String(path.dropFirst("exif/exif-samples/".count))
            let photo: Photo
            do {
                photo = try PhotoFiling.upright(try Corpora.bytes(path))
            } catch let error as PhotoError {
                #expect(!error.description.isEmpty, "\(path)")
                continue
            }
            if let date = expected[name], let want = LocalDateTime(exif: date), !name.hasPrefix("jpg/invalid/") {
                let offset = offsets[name].flatMap(UTCOffset.init(parsing:))
                #expect(photo.captureDate == CaptureDate(want, origin: .exifDateTimeOriginal, utcOffset: offset), "\(path)")
                checkedDates += 1
                if offset != nil { checkedOffsets += 1 }
            }
        }
        #expect(checkedDates >= 40)
        // The Nokia 8.3's photo, taken at +03:00.
        #expect(checkedOffsets == 1)
    }
}
