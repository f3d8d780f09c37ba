import DossierCore
import Foundation

/// How long a filed video plays, from its movie header (`mvhd`): what the report shows on a
/// video's icon where no poster frame could be made. Only the boxes are read, never the pictures.
public enum VideoLength {
    /// The seconds the video filed at `path` (relative to the library) plays; nil for a file that
    /// is no QuickTime or MP4 movie (AVI, MKV), has no header, or cannot be read.
    public static func seconds(ofVideoAt path: String, layout: LibraryLayout) -> Double? {
        guard let absolute = try? layout.url(forRelativePath: path).path,
              let descriptor = try? layout.files.openForReading(absolute)
        else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return (try? MovieFacts(reading: DescriptorBytes(descriptor: descriptor, byteCount: Int64(info.st_size))))?.duration
    }

    /// `0:07`, `4:32`, `1:02:09`: a length as players show it, rounded to the second.
    public static func text(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        let tail = String(format: "%02d", rest)
        return hours > 0 ? "\(hours):\(String(format: "%02d", minutes)):\(tail)" : "\(minutes):\(tail)"
    }
}
