import DossierCore

extension FiledAsItIsHandler {
    /// Sound: MP3, WAV, AAC, Ogg (Opus, Vorbis) and FLAC, filed under `audio/` byte for byte,
    /// dated by their names or times. (M4A and voice memos come through `MovieHandler`, which
    /// reads their dates.)
    public static let sounds = FiledAsItIsHandler(
        name: "audio",
        summary: "MP3, WAV, AAC, Ogg (Opus, Vorbis) and FLAC sound, recognised by content, filed as it is under audio/",
        formats: [.mp3, .wav, .aac, .ogg, .flac],
        recognise: { head in
            if head.has("RIFF") && head.has("WAVE", at: 8) { return .wav }
            if head.has("ID3"), head.count > 3, (2...4).contains(head[3]) { return .mp3 }
            // An MPEG audio frame's sync (11 bits set), layer III; ADTS (AAC) has layer 0.
            if head.count > 2, head[0] == 0xFF, head[1] & 0xE0 == 0xE0 {
                if head[1] & 0x06 == 0x02 { return .mp3 }
                if head[1] & 0xF6 == 0xF0 { return .aac }
            }
            if head.has("OggS"), head.count > 4, head[4] == 0 { return .ogg }
            if head.has("fLaC") { return .flac }
            return nil
        },
        exif: { _, _ in nil })
}
