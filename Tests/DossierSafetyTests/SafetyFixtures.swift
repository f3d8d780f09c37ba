import CImageShims
import DossierCore
import Foundation
import DossierTestSupport
import Glibc
import Testing

/// Inputs the safety suite builds for itself: real-looking photos and logs, made in code.
enum SafetyFixtures {
    /// A distinct JPEG of `width` x `height` whose EXIF says Orientation `orientation`; `seed`
    /// changes every pixel, so two seeds never give the same bytes.
    static func jpeg(width: Int = 64, height: Int = 48, orientation: UInt8 = 6, seed: Int = 0) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for position in 0..<(width * height) {
            pixels[position * 3] = UInt8((position % width * 4 + seed * 9) & 0xFF)
            pixels[position * 3 + 1] = UInt8((position / width * 5 + seed * 5) & 0xFF)
            pixels[position * 3 + 2] = UInt8((seed * 37) & 0xFF)
        }
        return encoded(pixels, width: width, height: height, orientation: orientation)
    }

    /// A distinct JPEG, Orientation 1, whose EXIF says when it was taken (`2024:03:01 09:30:00`) in
    /// DateTimeOriginal: nineteen digits and colons a fix (`exiftool -P`) changes in place, the
    /// file keeping its size.
    static func datedJPEG(taken: String, seed: Int = 0) -> [UInt8] {
        precondition(taken.utf8.count == 19, "an EXIF date is 19 characters")
        let big: (Int) -> [UInt8] = { [UInt8($0 >> 24 & 0xFF), UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)] }
        // IFD0 at 8: Orientation, and the EXIF IFD at 38, whose one entry's date is at 56.
        var tiff: [UInt8] = [0x4D, 0x4D, 0, 0x2A] + big(8)
        tiff += [0, 2, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 1, 0, 0, 0x87, 0x69, 0, 4, 0, 0, 0, 1] + big(38) + big(0)
        tiff += [0, 1, 0x90, 0x03, 0, 2, 0, 0, 0, 20] + big(56) + big(0)
        tiff += Array(taken.utf8) + [0]
        var pixels = [UInt8](repeating: 0, count: 64 * 48 * 3)
        for position in 0..<(64 * 48) {
            pixels[position * 3] = UInt8((position % 64 * 3 + seed * 11) & 0xFF)
            pixels[position * 3 + 1] = UInt8((position / 64 * 5 + seed * 7) & 0xFF)
            pixels[position * 3 + 2] = UInt8((seed * 41) & 0xFF)
        }
        return encoded(pixels, width: 64, height: 48, exif: Array("Exif".utf8) + [0, 0] + tiff)
    }

    /// A JPEG of random noise, Orientation 1: about 1 MB at 640x480 that no codec shrinks, for
    /// filling a small disk.
    /// A JPEG cut inside its header, before its scan: no picture at all, so it fails (a JPEG cut
    /// later still decodes, and is filed as it is, damaged).
    static func headerCut(_ jpeg: [UInt8]) -> [UInt8] {
        Array(jpeg.prefix(100))
    }

    static func noisyJPEG(width: Int = 1024, height: Int = 768, seed: Int) -> [UInt8] {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 1)
        let pixels = (0..<(width * height * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return encoded(pixels, width: width, height: height, orientation: 1)
    }

    /// A JPEG over 48 MP, so Dossier turns it through scratch files (a large photo), yet small on
    /// disk and quick to make: stripes that change every 16 pixels across, 4:2:0, Orientation 6.
    static func largeJPEG(width: Int = 8016, height: Int = 6000) -> [UInt8] {
        let row = (0..<width * 3).map { UInt8(($0 / 48 * 29) & 0xFF) }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for _ in 0..<height { pixels.append(contentsOf: row) }
        return encoded(pixels, width: width, height: height, orientation: 6)
    }

    /// RGB pixels as a 4:2:0 JPEG, quality 90, with an EXIF block (big-endian, one IFD0 entry)
    /// saying Orientation `orientation`.
    private static func encoded(_ pixels: [UInt8], width: Int, height: Int, orientation: UInt8) -> [UInt8] {
        encoded(pixels, width: width, height: height, exif: Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1,
                                                                                  0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0])
    }

    /// RGB pixels as a 4:2:0 JPEG, quality 90, with this APP1 block.
    private static func encoded(_ pixels: [UInt8], width: Int, height: Int, exif app1: [UInt8]) -> [UInt8] {
        var output = dossier_buffer()
        var status = dossier_status()
        let result = pixels.withUnsafeBufferPointer { rgb in
            app1.withUnsafeBufferPointer { exif in
                dossier_jpeg_encode_rgb(rgb.baseAddress, Int32(width), Int32(height), 90, 2, 2, exif.baseAddress,
                                        exif.count, nil, 0, &output, &status)
            }
        }
        precondition(result == 0, "the test JPEG could not be encoded")
        defer { dossier_buffer_free(&output) }
        return Array(UnsafeBufferPointer(start: output.data, count: output.size))
    }

    /// A Unix socket of `type` bound at `path` (its file made there); the caller closes it.
    static func unixSocket(at path: String, type: __socket_type) -> Int32 {
        let socket = Glibc.socket(AF_UNIX, Int32(type.rawValue), 0)
        #expect(socket >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        return socket
    }

    /// The bytes of a file, or nil when there is none (or it cannot be read).
    static func contents(_ path: String) -> [UInt8]? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map(Array.init)
    }
}
