import CImageShims
import DossierPhotos

/// Builds JPEGs for tests and reads them back, through the same libjpeg the product uses.
enum TestJPEG {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Encodes an RGB picture with luma sampling hSamp x vSamp (2x2 = 4:2:0, 2x1 = 4:2:2, 1x1 = 4:4:4).
    static func encode(_ picture: TestPicture, quality: Int = 92, hSamp: Int, vSamp: Int,
                       app1: [UInt8]? = nil) throws -> [UInt8]
    {
        var output = dossier_buffer()
        var status = dossier_status()
        let result = picture.pixels.withUnsafeBufferPointer { pixels in
            withApp1(app1) { app1 in
                dossier_jpeg_encode_rgb(pixels.baseAddress, Int32(picture.width), Int32(picture.height), Int32(quality),
                                        Int32(hSamp), Int32(vSamp), app1.baseAddress, app1.count, nil, 0, &output, &status)
            }
        }
        defer { dossier_buffer_free(&output) }
        guard result == 0 else { throw Failure(description: "encode failed: \(status.code)") }
        return Array(UnsafeBufferPointer(start: output.data, count: output.size))
    }

    static func decode(_ bytes: [UInt8]) throws -> TestPicture {
        let decoded = try JPEGCodec.decodeRGB(bytes)
        return TestPicture(width: decoded.width, height: decoded.height, channels: 3, pixels: decoded.pixels)
    }

    struct Coefficients {
        struct Component {
            let widthInBlocks: Int
            let heightInBlocks: Int
            /// 64 coefficients per block, natural order, blocks in raster order.
            let blocks: [Int16]
            let quant: [UInt16]

            func coefficient(blockX: Int, blockY: Int, row: Int, column: Int) -> Int16 {
                blocks[(blockY * widthInBlocks + blockX) * 64 + row * 8 + column]
            }
        }

        let components: [Component]
    }

    static func coefficients(_ bytes: [UInt8]) throws -> Coefficients {
        var coefficients = dossier_jpeg_coefficients()
        var status = dossier_status()
        let result = bytes.withUnsafeBufferPointer {
            dossier_jpeg_read_coefficients($0.baseAddress, $0.count, &coefficients, &status)
        }
        guard result == 0 else { throw Failure(description: "reading coefficients failed: \(status.code)") }
        defer { dossier_jpeg_coefficients_free(&coefficients) }
        let widths = withUnsafeBytes(of: coefficients.width_in_blocks) { Array($0.bindMemory(to: Int32.self)) }
        let heights = withUnsafeBytes(of: coefficients.height_in_blocks) { Array($0.bindMemory(to: Int32.self)) }
        let pointers = withUnsafeBytes(of: coefficients.blocks) { Array($0.bindMemory(to: UnsafeMutablePointer<Int16>?.self)) }
        let quants = withUnsafeBytes(of: coefficients.quant) { Array($0.bindMemory(to: UInt16.self)) }
        let components = (0..<Int(coefficients.components)).map { index in
            let count = Int(widths[index]) * Int(heights[index]) * 64
            return Coefficients.Component(
                widthInBlocks: Int(widths[index]), heightInBlocks: Int(heights[index]),
                blocks: Array(UnsafeBufferPointer(start: pointers[index], count: count)),
                quant: Array(quants[(index * 64)..<(index * 64 + 64)]))
        }
        return Coefficients(components: components)
    }

    /// The coefficients a lossless turn of `source` for `orientation` must give: blocks moved
    /// like pixels, and inside each block transposed and/or with odd rows or columns negated.
    static func expectedLosslessTurn(of source: Coefficients, orientation: Int) -> Coefficients {
        let transposes = orientation >= 5
        let negatesOddColumns = [2, 3, 6, 7].contains(orientation)
        let negatesOddRows = [3, 4, 7, 8].contains(orientation)
        let components = source.components.map { component in
            let width = transposes ? component.heightInBlocks : component.widthInBlocks
            let height = transposes ? component.widthInBlocks : component.heightInBlocks
            var blocks = [Int16](repeating: 0, count: width * height * 64)
            for blockY in 0..<height {
                for blockX in 0..<width {
                    let (sourceX, sourceY) = TestPicture.sourcePosition(
                        orientation, blockX, blockY, width: component.widthInBlocks, height: component.heightInBlocks)
                    for row in 0..<8 {
                        for column in 0..<8 {
                            var value = transposes
                                ? component.coefficient(blockX: sourceX, blockY: sourceY, row: column, column: row)
                                : component.coefficient(blockX: sourceX, blockY: sourceY, row: row, column: column)
                            if negatesOddColumns && column % 2 == 1 { value = -value }
                            if negatesOddRows && row % 2 == 1 { value = -value }
                            blocks[(blockY * width + blockX) * 64 + row * 8 + column] = value
                        }
                    }
                }
            }
            let quant = transposes
                ? (0..<64).map { component.quant[($0 % 8) * 8 + $0 / 8] }
                : component.quant
            return Coefficients.Component(widthInBlocks: width, heightInBlocks: height, blocks: blocks, quant: quant)
        }
        return Coefficients(components: components)
    }

    private static func withApp1<R>(_ bytes: [UInt8]?, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard let bytes else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return bytes.withUnsafeBufferPointer(body)
    }
}
