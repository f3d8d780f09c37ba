/// What `dossier verify` checked and found.
public struct VerificationResult: Sendable {
    /// Files read or looked at: filed files, year files, profiles, kept sources, quarantined sources.
    public var checkedFiles = 0
    /// Bytes hashed (none with `--quick` but those of the year files and profiles).
    public var checkedBytes: Int64 = 0
    /// Renditions beside their photos: made from them, not filed from a source, so not in the
    /// index and not checked byte for byte.
    public var renditions = 0
    /// In path order.
    public var findings: [VerificationFinding] = []

    public init() {}

    public var isClean: Bool { findings.isEmpty }

    public func count(_ kind: VerificationFinding.Kind) -> Int {
        findings.count { $0.kind == kind }
    }
}
