/// What `dossier verify` checked and found.
public struct VerificationResult: Sendable {
    /// Files read or looked at: filed files and their renditions, year files, profiles, kept
    /// sources, quarantined sources.
    public var checkedFiles = 0
    /// Bytes hashed (none with `--quick` but those of the year files and profiles).
    public var checkedBytes: Int64 = 0
    /// In path order.
    public var findings: [VerificationFinding] = []

    public init() {}

    public var isClean: Bool { findings.isEmpty }

    public func count(_ kind: VerificationFinding.Kind) -> Int {
        findings.count { $0.kind == kind }
    }
}
