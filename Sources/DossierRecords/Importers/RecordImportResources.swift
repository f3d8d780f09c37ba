import DossierCore

/// What every record importer needs, loaded once per run and shared: the library's keyword
/// table (its words are never names), its settings, the subjects' names, and what each subject
/// is (a child, a reptile...), which says what its unitless numbers can be.
struct RecordImportResources: Sendable {
    let keywords: KeywordTable
    let settings: RecordsSettings
    let directory: SubjectDirectory
    /// By the profiles as the run began; a subject with no profile, or a pet with no class or
    /// known species, has none.
    let subjectClasses: [Subject: SubjectClass]
    /// Children's birth dates, by their profiles: how old a child was on a record's date.
    let births: [Subject: RecordDate]

    /// What the subject was on `date`, as far as what its measurements can be.
    func subjectClass(of subject: Subject, on date: RecordDate) -> SubjectClass? {
        let known = subjectClasses[subject]
        guard known == .child, let born = births[subject] else { return known }
        let days = CivilDays.number(of: date) - CivilDays.number(of: born)
        return days >= 0 && days < 730 ? .infant : .child
    }

    var unitSettler: UnitSettler { UnitSettler(configured: settings.units) }

    static func of(_ context: PipelineContext) throws -> RecordImportResources {
        try context.resources.value(RecordImportResources.self) {
            let names = context.routing.names
            let profiles = ProfileStore(layout: context.layout)
            var classes: [Subject: SubjectClass] = [:]
            var births: [Subject: RecordDate] = [:]
            for subject in names.keys {
                // An unreadable profile only costs its subject's plausibility check, said per row.
                let profile = try? profiles.profile(of: subject)
                if let subjectClass = SubjectClass(subject: subject, profile: profile) { classes[subject] = subjectClass }
                if subject.kind == .children, let born = profile?.born { births[subject] = born }
            }
            return RecordImportResources(
                keywords: try KeywordTable.load(for: context.layout),
                settings: try RecordsSettings.load(for: context.layout),
                directory: SubjectDirectory(entries: names.sorted { $0.key < $1.key }
                    .map { (subject: $0.key, names: $0.value) }),
                subjectClasses: classes, births: births)
        }
    }
}
