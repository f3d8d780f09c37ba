import DossierCore

/// An imported profile laid over the one on disk: what the source gives fills the fields the
/// profile lacks and replaces the ones an import wrote, but a field a person typed stays (unless
/// `--overwrite-profiles`), and is reported with the value the source gave instead.
public struct ProfileMerge: Sendable {
    /// The profile to write.
    public let merged: SubjectProfile
    /// What changed, and what was kept, for the import's outcome.
    public let change: ProfileChange

    public init(existing: SubjectProfile?, imported: SubjectProfile, overwritingTyped: Bool) {
        guard let existing else {
            var fresh = imported
            fresh.typed = []
            merged = fresh
            let given = ProfileField.allCases.filter { $0.value(in: imported) != nil }
            change = ProfileChange(subject: imported.subject,
                                   changed: ProfileMerge.names(given, aliasesAdded: !imported.aliases.isEmpty))
            return
        }
        var merged = existing
        var changed: [ProfileField] = []
        var kept: [TypedFieldKept] = []
        for field in ProfileField.allCases {
            guard let offered = field.value(in: imported), offered != field.value(in: existing) else { continue }
            if let typedValue = field.value(in: existing), existing.typed.contains(field), !overwritingTyped {
                kept.append(TypedFieldKept(field: field.rawValue, kept: typedValue, imported: offered))
                continue
            }
            field.copy(from: imported, into: &merged)
            // The value is the source's now: a later import may change it again.
            merged.typed.remove(field)
            changed.append(field)
        }
        let newAliases = imported.aliases.filter { !existing.aliases.contains($0) }
        for alias in newAliases where !merged.aliases.contains(alias) { merged.aliases.append(alias) }
        // Derived from the birth date the profile keeps, which may be the typed one, not the source's.
        if merged.subject.kind == .children, let born = merged.born,
           let day = imported.derived?.asOf ?? existing.derived?.asOf {
            merged.derived = ChildDerivedFields.compute(birth: born, asOf: day)
        }
        self.merged = merged
        change = ProfileChange(subject: existing.subject, changed: ProfileMerge.names(changed, aliasesAdded: !newAliases.isEmpty),
                               keptTyped: kept)
    }

    /// Field names in the order of `profile.json`'s person-facing fields, aliases after the name.
    private static func names(_ fields: [ProfileField], aliasesAdded: Bool) -> [String] {
        var names = fields.sorted().map(\.rawValue)
        if aliasesAdded { names.insert("aliases", at: fields.contains(.name) ? 1 : 0) }
        return names
    }
}
