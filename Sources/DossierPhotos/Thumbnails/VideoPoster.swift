import CImageShims
import DossierCore
import Foundation

/// A video's poster frame, by Debian's `ffmpeg` where it is installed: its first frame, turned
/// as the video is shown and scaled to the thumbnail's size by ffmpeg, handed back as PPM, and
/// encoded here like every other thumbnail. A program of its own, not a library linked or loaded:
/// libavcodec and what it brings would be paid by every `dossier` command, for the few files
/// that need it, and a video that hangs its decoder is stopped with its process.
enum VideoPoster {
    /// ffmpeg on the PATH (or in /usr/bin), once looked for.
    static let ffmpeg: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"]
        return folders.map { "\($0)/ffmpeg" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// How long a poster may take before ffmpeg is stopped (a damaged or hostile file).
    static let timeout: TimeInterval = 30

    /// The poster of the video open as `descriptor` (given to ffmpeg as its standard input, so
    /// the path it was opened by is never resolved again), as a JPEG; nil when ffmpeg is not here.
    static func poster(of descriptor: Int32, path: String, longest: Int, quality: Int) throws(ThumbnailError) -> [UInt8]? {
        guard let ffmpeg else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        // /dev/stdin is the video file itself (not a pipe), so ffmpeg can seek in it as a MOV needs.
        process.arguments = ["-nostats", "-v", "error", "-i", "/dev/stdin", "-frames:v", "1", "-an", "-sn",
                             "-vf", "scale=\(longest):\(longest):force_original_aspect_ratio=decrease",
                             "-f", "image2pipe", "-c:v", "ppm", "-pix_fmt", "rgb24", "pipe:1"]
        process.standardInput = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        // Its messages go to a scratch file, not a pipe: read after it ends, they can never fill
        // a pipe and stall it, and no thread is needed to drain them.
        var template = Array((NSTemporaryDirectory() + "/dossier-ffmpeg-XXXXXX").utf8CString)
        let errorFile = mkstemp(&template)
        guard errorFile >= 0 else { return nil }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        defer { close(errorFile) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(fileDescriptor: errorFile, closeOnDealloc: false)
        do {
            try process.run()
        } catch {
            return nil
        }
        // A hung decoder is stopped: a watchdog thread of its own, which ends with the process.
        let watchdog = Thread {
            let end = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < end { usleep(50_000) }
            if process.isRunning { process.terminate() }
        }
        watchdog.start()
        let ppm = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        lseek(errorFile, 0, SEEK_SET)
        let errorText = [UInt8](FileHandle(fileDescriptor: errorFile, closeOnDealloc: false).readData(ofLength: 1 << 16))
        let said = String(decoding: errorText, as: UTF8.self).split(separator: "\n").last.map(String.init)
        guard process.terminationReason == .exit, process.terminationStatus == 0, let picture = PPM(ppm) else {
            throw .undecodable(path: path, reason: "ffmpeg found no picture in it" + (said.map { ": \($0)" } ?? ""))
        }
        var encoded = dossier_buffer()
        var status = dossier_status()
        let code = ppm.withUnsafeBufferPointer {
            dossier_jpeg_encode_rgb($0.baseAddress! + picture.offset, Int32(picture.width), Int32(picture.height),
                                    Int32(quality), 1, 1, nil, 0, nil, 0, &encoded, &status)
        }
        let bytes = encoded.takeBytes()
        guard code == 0 else { throw .undecodable(path: path, reason: status.error(format: "poster").description) }
        return bytes
    }

    /// A binary PPM (P6, 8 bits) as ffmpeg writes it: its size, and where its pixels start.
    private struct PPM {
        let width: Int
        let height: Int
        let offset: Int

        init?(_ bytes: [UInt8]) {
            var fields: [Int] = []
            var at = 2
            guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else { return nil }
            while fields.count < 3, at < bytes.count {
                while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
                var value = 0, digits = 0
                while at < bytes.count, (48...57).contains(bytes[at]), digits < 9 {
                    value = value * 10 + Int(bytes[at] - 48)
                    at += 1
                    digits += 1
                }
                guard digits > 0 else { return nil }
                fields.append(value)
            }
            // One whitespace byte ends the header.
            at += 1
            guard fields.count == 3, fields[2] == 255, fields[0] > 0, fields[1] > 0,
                  bytes.count - at >= fields[0] * fields[1] * 3 else { return nil }
            (width, height, offset) = (fields[0], fields[1], at)
        }
    }
}
