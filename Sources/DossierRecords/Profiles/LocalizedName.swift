/// A name shown to Korean and English-speaking users alike: the old diary apps showed Korean,
/// and Dossier's CLI and JSON are read in English, so both are kept side by side.
public struct LocalizedName: Codable, Hashable, Sendable, CustomStringConvertible {
    public let ko: String
    public let en: String

    public init(ko: String, en: String) {
        self.ko = ko
        self.en = en
    }

    /// `용 (Dragon)`.
    public var description: String { "\(ko) (\(en))" }
}
