/// What an ISO base media file says it is: the brands of its leading `ftyp` box, read from the
/// first bytes a sniff hands over.
struct ISOFileType: Equatable, Sendable {
    let majorBrand: String
    let compatibleBrands: [String]

    /// The `ftyp` box at the very start of `head`; nil if it is not there. Brands past the end
    /// of `head` (or of a box cut short) are not read: a damaged file is still recognised by
    /// those that are, so its decoder can say what is wrong with it.
    init?(head: [UInt8]) {
        guard head.count >= 12, ISOBoxReader.fourCC(head[4..<8]) == "ftyp" else { return nil }
        let declared = Int(UInt32(bigEndianBytes: head[0..<4]))
        let end = min(head.count, declared >= 16 ? declared : 12)
        majorBrand = ISOBoxReader.fourCC(head[8..<12])
        var brands: [String] = []
        var offset = 16
        while offset + 4 <= end {
            brands.append(ISOBoxReader.fourCC(head[offset..<offset + 4]))
            offset += 4
        }
        compatibleBrands = brands
    }

    var brands: [String] { [majorBrand] + compatibleBrands }

    /// Brands of HEIF still images and image sequences (ISO/IEC 23008-12, MIAF, AVIF): HEVC, AV1,
    /// VVC and the structural `mif1`/`msf1` family.
    static let imageBrands: Set<String> = ["mif1", "mif2", "mif3", "msf1", "miaf", "heic", "heix", "heim", "heis",
                                           "hevc", "hevx", "hevm", "hevs", "avif", "avis", "avio", "vvic", "vvis",
                                           "jpeg", "jpgs"]

    /// Brands of movies: QuickTime, MP4, M4V, 3GP and 3G2, and the ISO family they build on.
    static let movieBrands: Set<String> = ["qt  ", "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8",
                                           "iso9", "mp41", "mp42", "mp71", "avc1", "M4V ", "M4VH", "M4VP", "3gp4",
                                           "3gp5", "3gp6", "3gp7", "3gp8", "3gp9", "3g2a", "3g2b", "3g2c", "MSNV",
                                           "XAVC", "f4v ", "dash", "mmp4", "CAEP", "caqv", "niko", "MQT "]

    /// Any image brand makes it HEIF: a HEIF file may also list `iso8` or carry a movie track
    /// (a motion photo's), but a movie never lists a HEIF brand.
    var isHEIF: Bool { brands.contains { ISOFileType.imageBrands.contains($0) } }

    /// Major brands of sound alone (iTunes audio and audiobooks, Flash audio): their `isom`
    /// compatibility does not make them movies.
    static let soundBrands: Set<String> = ["M4A ", "M4B ", "M4P ", "F4A ", "F4B "]

    /// Major brands of camera raws in an ISO container (Canon's CR3): their `isom` compatibility
    /// does not make them movies.
    static let rawBrands: Set<String> = ["crx "]

    /// A movie: a movie brand, no image brand, and not a sound file or a raw.
    var isMovie: Bool {
        !isHEIF && !ISOFileType.soundBrands.contains(majorBrand) && !ISOFileType.rawBrands.contains(majorBrand)
            && brands.contains { ISOFileType.movieBrands.contains($0) }
    }
}
