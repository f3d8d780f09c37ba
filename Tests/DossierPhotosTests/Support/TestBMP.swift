import DossierTestSupport

/// A 24-bit BMP of a picture, as Windows and scanners write them: rows bottom-up, each BGR and
/// padded to four bytes.
enum TestBMP {
    static func rgb(_ picture: TestPicture) -> [UInt8] {
        let rowSize = (picture.width * 3 + 3) / 4 * 4
        var rows: [UInt8] = []
        for y in (0..<picture.height).reversed() {
            for x in 0..<picture.width {
                let at = (y * picture.width + x) * 3
                rows += [picture.pixels[at + 2], picture.pixels[at + 1], picture.pixels[at]]
            }
            rows += [UInt8](repeating: 0, count: rowSize - picture.width * 3)
        }
        let le = TestTIFF.le
        let info = le(40, 4) + le(picture.width, 4) + le(picture.height, 4) + le(1, 2) + le(24, 2) + le(0, 4)
            + le(rows.count, 4) + le(2835, 4) + le(2835, 4) + le(0, 4) + le(0, 4)
        return Array("BM".utf8) + le(14 + info.count + rows.count, 4) + le(0, 4) + le(14 + info.count, 4) + info + rows
    }
}
