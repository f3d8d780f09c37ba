import DossierCore

extension FiledAsItIsHandler {
    /// Camcorders' and older cameras' videos: AVI, Matroska and WebM, MPEG transport streams
    /// (AVCHD's MTS, M2TS), filed under `videos/` byte for byte, dated by their names or times.
    public static let videos = FiledAsItIsHandler(
        name: "video-other",
        summary: "AVI, Matroska/WebM and MPEG transport stream (MTS, M2TS) videos, recognised by content, filed as they are",
        formats: [.avi, .mkv, .webm, .mts],
        recognise: { head in
            if head.has("RIFF") && head.has("AVI ", at: 8) { return .avi }
            if head.has([0x1A, 0x45, 0xDF, 0xA3]) {
                // The EBML header's DocType names it: `webm` or `matroska`.
                return head.prefix(64).windows(ofCount: 4).contains { $0.elementsEqual("webm".utf8) } ? .webm : .mkv
            }
            // 188-byte packets each starting 0x47, or 192 with a 4-byte time code (M2TS).
            if head.count > 376, head[0] == 0x47, head[188] == 0x47, head[376] == 0x47 { return .mts }
            if head.count > 388, head[4] == 0x47, head[196] == 0x47, head[388] == 0x47 { return .mts }
            return nil
        },
        exif: { _, _ in nil })
}

private extension ArraySlice where Element == UInt8 {
    /// Every run of `count` bytes, in order.
    func windows(ofCount count: Int) -> [ArraySlice<UInt8>] {
        guard self.count >= count else { return [] }
        return (startIndex...(endIndex - count)).map { self[$0..<($0 + count)] }
    }
}
