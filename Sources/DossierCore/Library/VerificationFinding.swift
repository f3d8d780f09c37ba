/// One thing `dossier verify` found wrong in a library.
public struct VerificationFinding: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// There, but its bytes are not the ones the index (or its name) says were filed.
        case damaged
        /// The index says it is filed, and nothing is at its path.
        case missing
        /// In a subject folder, `sources/` or the quarantine, and the index knows nothing of it.
        case unindexed
        /// A year file, profile or quarantine note that cannot be read as what it is.
        case unreadable
    }

    public var kind: Kind
    /// Relative to the library root.
    public var path: String
    public var reason: String
    /// A copy still at hand with the bytes that were filed (an original kept under `originals/`,
    /// the source where it was imported from), absolute: what the file can be filed again from.
    public var goodCopy: String?
    /// For a filed file with a good copy: the subject it was filed under (`pets/leo`), what the
    /// good copy is filed for again.
    public var subject: String?

    public init(kind: Kind, path: String, reason: String, goodCopy: String? = nil, subject: String? = nil) {
        self.kind = kind
        self.path = path
        self.reason = reason
        self.goodCopy = goodCopy
        self.subject = subject
    }
}
