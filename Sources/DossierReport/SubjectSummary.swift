/// What the index's card of a subject shows, kept in the report's state beside the digest of the
/// subject's inputs: a subject whose inputs did not change gets its card from here, unread.
struct SubjectSummary: Codable, Sendable, Equatable {
    struct Reading: Codable, Sendable, Equatable {
        let date: String
        let value: String
        let unit: String
    }

    let subject: String
    let name: String
    /// `children`, or the pet's class from the species table (`reptile`...), or `other`.
    let group: String
    let species: String?
    let morph: String?
    /// The birth or hatch date, `YYYY-MM-DD`.
    let born: String?
    /// The latest photo's thumbnail, relative to the library.
    let latestPhoto: String?
    let lastWeight: Reading?
    let lastFeeding: String?
    let lastShed: String?
    let problems: Int
}
