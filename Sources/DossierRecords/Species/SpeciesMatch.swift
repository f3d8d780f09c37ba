/// What a keeper's text named: a species, and the subspecies and morph when the text named
/// those too ("레오파드 게코 마크스노우"), all in their canonical spelling.
public struct SpeciesMatch: Equatable, Sendable {
    public let entry: SpeciesEntry
    public let subspecies: String?
    public let morph: String?

    public init(entry: SpeciesEntry, subspecies: String? = nil, morph: String? = nil) {
        self.entry = entry
        self.subspecies = subspecies
        self.morph = morph
    }
}
