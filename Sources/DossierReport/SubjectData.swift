import DossierCore
import DossierRecords

/// Everything one subject's page is made from, read from the library's folders (the truth) and
/// the problems ledger.
struct SubjectData {
    let subject: Subject
    let profile: SubjectProfile?
    /// `children`, or the pet's class (`reptile`...), or `other`.
    let group: String
    let records: [Record]
    let media: [FiledMedia]
    let problems: [LedgerProblem]

    var name: String {
        guard let name = profile?.name, !name.isEmpty else { return subject.id.rawValue }
        return name
    }

    /// The first measurement in `unit` of each record of `kind`, in date order.
    /// The readings of one quantity: each record's measurement named for it (a line "weight 9.6 kg,
    /// length 75.7 cm" is one record with both), or, in a record of its kind, the one in its unit.
    func readings(of names: Set<String>, unit: MeasurementUnit) -> [(record: Record, measurement: RecordMeasurement)] {
        records.compactMap { record in
            let inUnit = record.measurements.filter { $0.unit == unit }
            guard let measurement = inUnit.first(where: { names.contains($0.name.lowercased()) })
                ?? (names.contains(record.kind) ? inUnit.first : nil)
            else { return nil }
            return (record, measurement)
        }
    }

    static let weightNames: Set<String> = ["weight"]
    static let lengthNames: Set<String> = ["length", "height"]

    func lastDay(of kind: String) -> RecordDate? {
        records.last { $0.kind == kind }?.date.dayOnly
    }

    var summary: SubjectSummary {
        let weight = readings(of: SubjectData.weightNames, unit: .grams).last
        return SubjectSummary(
            subject: subject.path, name: name, group: group, species: profile?.species, morph: profile?.morph,
            born: profile?.born?.dayOnly.iso8601,
            latestPhoto: media.last { $0.kind == .photo && $0.shown != nil }.flatMap(ThumbnailChooser.thumbnail(for:)),
            lastWeight: weight.map { SubjectSummary.Reading(date: $0.record.date.dayOnly.iso8601, value: $0.measurement.shownValue,
                                                            unit: $0.measurement.unit.rawValue) },
            lastFeeding: lastDay(of: "feeding")?.iso8601, lastShed: lastDay(of: "shedding")?.iso8601, problems: problems.count)
    }

    /// The index's group of a subject: a child, or its class by the profile's word for it, else by
    /// its species in the library's species table.
    static func group(of subject: Subject, profile: SubjectProfile?, species: SpeciesTable) -> String {
        if subject.kind == .children { return "children" }
        if let named = profile?.animalClass.flatMap(AnimalClassNames.canonical) { return named }
        if let entry = profile?.species.flatMap({ species.match($0)?.entry }) {
            return AnimalClassNames.canonical(entry.animalClass) ?? entry.animalClass
        }
        return "other"
    }
}
