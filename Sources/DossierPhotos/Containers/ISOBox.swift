/// One box of an ISO base media file (ISO/IEC 14496-12): where it lies, not its bytes.
struct ISOBox: Equatable, Sendable {
    /// The four-character type, e.g. `ftyp`, `moov`, `meta`.
    let type: String
    /// Where the box starts (its size field).
    let start: Int64
    /// Where its payload starts: after the size, the type, a 64-bit size and a `uuid` type if any.
    let payloadStart: Int64
    /// Where the box ends (exclusive).
    let end: Int64

    var payloadLength: Int64 { end - payloadStart }
}
