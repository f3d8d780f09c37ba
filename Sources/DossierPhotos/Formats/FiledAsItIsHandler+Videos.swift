import DossierCore

extension FiledAsItIsHandler {
    /// Camcorders' and older cameras' videos: AVI, Matroska and WebM, MPEG transport streams
    /// (AVCHD's MTS, M2TS, dated by their `MDPM`), filed under `videos/` byte for byte.
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
            if AVCHDDates.packetLayout(head) != nil { return .mts }
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
