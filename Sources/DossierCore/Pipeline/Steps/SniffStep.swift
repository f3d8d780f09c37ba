/// The source's first bytes are read and the importer that recognises them picked; a source no
/// importer reads is skipped, saying what it looks like.
struct SniffStep: ImportStep {
    let name = "sniff"
    let phase = ImportStepPhase.working
    let stage = ImportStage.sniff

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        guard let file = source.source else { return .next }
        let head = try run.worker.step(.sniff, file) { try SourceWorker.sniffedHead(of: file) }
        source.head = head
        guard let importer = run.worker.registry.importer(for: head) else {
            let type = FileTypeDescription.describe(head: head)
            source.worked = WorkedSource(outcome: SourceOutcome(
                source: file.path, status: .skipped, stage: .sniff,
                error: "\(file.path): not a kind of file Dossier imports (it looks like \(type))"), source: file)
            return .decided
        }
        source.importer = importer
        return .next
    }
}

// MARK: - FileTypeDescription

/// Names what a file probably is from its first bytes, so a skipped file is reported with its
/// type ("MP4 or QuickTime video") rather than just "unknown".
public enum FileTypeDescription {
    public static func describe(head: [UInt8]) -> String {
        if head.isEmpty { return "an empty file" }
        if let format = signature(head: head) { return format }
        let lowered = String(decoding: head.prefix(512), as: UTF8.self).lowercased()
        if lowered.contains("<!doctype html") || lowered.contains("<html") { return "an HTML page" }
        // Text has no control bytes but tab, line breaks and form feed; random data almost always has.
        if !head.prefix(4096).contains(where: { $0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains($0) }) { return "a text file" }
        return "data of an unknown type"
    }

    /// Whether the bytes read as plain text: valid UTF-8 with no control bytes but tab, line
    /// breaks and form feed. A notepad log that starts with `GIF89a` or `fLaC` is such text; no
    /// file of those formats is (their headers hold sizes and counts).
    public static func isPlainUTF8Text(_ head: [UInt8]) -> Bool {
        let sample = head.prefix(1024)
        guard !sample.isEmpty, !sample.contains(where: { $0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains($0) }) else { return false }
        // A multi-byte character cut by the sample's end is not a reason to call it binary.
        var bytes = Array(sample)
        while let last = bytes.last, last >= 0x80, String(validating: bytes, as: UTF8.self) == nil, bytes.count > sample.count - 4 {
            bytes.removeLast()
        }
        return String(validating: bytes, as: UTF8.self) != nil
    }

    /// What a file in a binary format Dossier knows is, by its signature, unless the head is plain
    /// text (a log that starts `GIF89a notes`): such a file is never read as text, whatever its
    /// bytes (a PPM's pixels may all be printable).
    public static func binaryFormat(head: [UInt8]) -> String? {
        isPlainUTF8Text(head) ? nil : signature(head: head)
    }

    /// The format a file's signature names, whatever follows it.
    static func signature(head: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
        }
        func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
        /// A signature followed by a byte no text has there (a version, a count, a NUL).
        func starts(_ text: String, thenBelow limit: UInt8) -> Bool {
            starts(ascii(text)) && head.count > text.utf8.count && head[text.utf8.count] < limit
        }
        if starts(ascii("ftyp"), at: 4) {
            let brand = head.count >= 12 ? String(decoding: head[8..<12], as: UTF8.self) : ""
            if ["heic", "heix", "mif1", "msf1", "heim", "heis", "hevc"].contains(brand) { return "a HEIC/HEIF image" }
            if brand == "avif" { return "an AVIF image" }
            if brand == "crx " { return "a Canon CR3 raw photo" }
            if ["M4A ", "M4B ", "M4P ", "F4A ", "F4B "].contains(brand) { return "an M4A audio file" }
            if brand == "jxl " { return "a JPEG XL image" }
            return "an MP4 or QuickTime video"
        }
        if starts([0x00, 0x00, 0x00, 0x0C]) && starts(ascii("JXL "), at: 4) || starts([0xFF, 0x0A]) { return "a JPEG XL image" }
        if starts(ascii("GIF8")) { return "a GIF image" }
        if starts(ascii("RIFF")) && starts(ascii("WEBP"), at: 8) { return "a WebP image" }
        if starts(ascii("RIFF")) && starts(ascii("AVI "), at: 8) { return "an AVI video" }
        if starts(ascii("RIFF")) && starts(ascii("WAVE"), at: 8) { return "a WAV audio file" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "a TIFF or camera raw image" }
        if starts(ascii("BM")) && head.count > 14 && head[6] == 0 && head[7] == 0 && head[8] == 0 && head[9] == 0 {
            return "a BMP image"
        }
        if starts(ascii("%PDF")) { return "a PDF document" }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return "a ZIP archive (or an Office document)" }
        if starts([0xD0, 0xCF, 0x11, 0xE0]) { return "an old Office document" }
        if starts([0xFF, 0xD8]) { return "a JPEG without a valid start" }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "a PNG without a valid signature" }
        if starts("ID3", thenBelow: 0x05) || starts([0xFF, 0xFB]) || starts([0xFF, 0xF3]) || starts([0xFF, 0xF2]) {
            return "an MP3 audio file"
        }
        if starts("OggS", thenBelow: 0x01) { return "an Ogg audio file (Opus or Vorbis)" }
        if starts("fLaC", thenBelow: 0x01) { return "a FLAC audio file" }
        if starts([0xFF, 0xF1]) || starts([0xFF, 0xF9]) { return "an AAC audio file" }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return "a Matroska or WebM video" }
        if head.count > 188 && head[0] == 0x47 && head[188] == 0x47 { return "an MPEG transport stream video (MTS, M2TS)" }
        // M2TS: each 188-byte packet after a 4-byte time code.
        if head.count > 196 && head[4] == 0x47 && head[196] == 0x47 { return "an MPEG transport stream video (MTS, M2TS)" }
        if starts([0x00, 0x01, 0x00, 0x00, 0x00]) || starts("OTTO", thenBelow: 0x01) || starts("wOFF", thenBelow: 0x20)
            || starts("wOF2", thenBelow: 0x20) {
            return "a font"
        }
        // Binary Netpbm (P4 to P7): the header, then raw samples.
        if head.count > 3, head[0] == UInt8(ascii: "P"), (UInt8(ascii: "4")...UInt8(ascii: "7")).contains(head[1]),
           [0x09, 0x0A, 0x0D, 0x20].contains(head[2]), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(head[3]) || head[3] == UInt8(ascii: "#") {
            return "a Netpbm image (PBM, PGM, PPM)"
        }
        return nil
    }
}
