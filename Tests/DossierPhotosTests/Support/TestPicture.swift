import Foundation

/// Interleaved 8-bit pixels with helpers to turn them and compare them.
struct TestPicture: Equatable {
    var width: Int
    var height: Int
    var channels: Int
    var pixels: [UInt8]

    /// A smooth, asymmetric RGB picture: every turn or mirror of it differs from it, and JPEG
    /// keeps it well (a generation costs little), so turned copies can be compared by PSNR.
    static func smooth(width: Int, height: Int) -> TestPicture {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let fx = Double(x), fy = Double(y)
                pixels.append(UInt8(clamping: Int(128 + 90 * sin(fx / 19 + fy / 53))))
                pixels.append(UInt8(clamping: Int(128 + 90 * cos(fy / 23 - fx / 71))))
                pixels.append(UInt8(clamping: Int(40 + 170 * fx / Double(max(width, 1)) * fy / Double(max(height, 1)))))
            }
        }
        return TestPicture(width: width, height: height, channels: 3, pixels: pixels)
    }

    /// The picture as it looks once turned upright for an EXIF orientation (1 to 8).
    func turnedUpright(for orientation: Int) -> TestPicture {
        let swaps = orientation >= 5
        let outWidth = swaps ? height : width
        let outHeight = swaps ? width : height
        var out = [UInt8](repeating: 0, count: pixels.count)
        for oy in 0..<outHeight {
            for ox in 0..<outWidth {
                let (sx, sy) = TestPicture.sourcePosition(orientation, ox, oy, width: width, height: height)
                let from = (sy * width + sx) * channels
                let to = (oy * outWidth + ox) * channels
                for channel in 0..<channels { out[to + channel] = pixels[from + channel] }
            }
        }
        return TestPicture(width: outWidth, height: outHeight, channels: channels, pixels: out)
    }

    /// Where the upright picture's pixel (ox, oy) comes from in a stored picture of width x height.
    static func sourcePosition(_ orientation: Int, _ ox: Int, _ oy: Int, width: Int, height: Int) -> (Int, Int) {
        switch orientation {
        case 2: return (width - 1 - ox, oy)
        case 3: return (width - 1 - ox, height - 1 - oy)
        case 4: return (ox, height - 1 - oy)
        case 5: return (oy, ox)
        case 6: return (oy, height - 1 - ox)
        case 7: return (width - 1 - oy, height - 1 - ox)
        case 8: return (width - 1 - oy, ox)
        default: return (ox, oy)
        }
    }

    /// Peak signal-to-noise ratio in dB against a picture of the same size (infinity if equal).
    func psnr(against other: TestPicture) -> Double {
        precondition(pixels.count == other.pixels.count)
        var sum = 0.0
        for index in pixels.indices {
            let difference = Double(pixels[index]) - Double(other.pixels[index])
            sum += difference * difference
        }
        let meanSquare = sum / Double(pixels.count)
        return meanSquare == 0 ? .infinity : 10 * log10(255 * 255 / meanSquare)
    }
}
