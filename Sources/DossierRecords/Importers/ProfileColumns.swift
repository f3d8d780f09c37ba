import DossierCore
import Foundation

/// A CSV header that describes subjects (id, name, born, species...) rather than dated records.
struct ProfileColumns {
    let header: [String]

    /// Nil unless the header has a name, an id, something only a subject has (a kind, a birth
    /// date, a sex, a species...) and no date column: then rows are profiles. A contact list
    /// (`id,name,email,phone`) is none.
    init?(header: [String]) {
        let fields = Set(header.compactMap(ProfileFields.field(for:)))
        guard fields.contains(.name), fields.contains(.id), !fields.subtracting([.name, .id, .aliases, .notes]).isEmpty,
              !CSVImporter.hasDateColumn(CSVColumns(header: header, decimalComma: false))
        else { return nil }
        self.header = header
    }

    func profile(from row: CSVRow) -> Result<SubjectProfile, NotepadProblem> {
        var values: [String: Any] = [:]
        for (key, value) in zip(header, row.fields) where !value.isEmpty { values[key] = value }
        // CSV dates are text, written as days: no zone applies (UTC stands for none).
        switch ProfileFields.profile(from: values, defaultKind: nil, timeZone: TimeZone(identifier: "UTC")!) {
        case .success(let profile): return .success(profile)
        case .failure(let failure): return .failure(NotepadProblem(line: row.line, reason: "not a profile: \(failure)"))
        }
    }
}
