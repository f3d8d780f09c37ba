import DossierCore
import Foundation

/// Reads subject profiles from the loose key-value shapes apps and spreadsheets keep them in
/// (a plist dictionary, a CSV row): keys in English or Korean, dates as dates or text.
enum ProfileFields {
    enum Field: CaseIterable {
        case id, kind, name, aliases, born, sex, animalClass, species, subspecies, morph, notes
    }

    private static let aliases: [Field: [String]] = [
        .id: ["id", "identifier", "아이디"],
        .kind: ["kind", "type", "subjectkind", "종류", "구분"],
        .name: ["name", "이름", "nickname", "애칭"],
        .aliases: ["aliases", "alias", "별명", "별칭", "othernames"],
        .born: ["born", "birth", "birthday", "birthdate", "dateofbirth", "dob", "hatch", "hatched", "hatchdate",
                "hatchday", "생일", "생년월일", "출생일", "해칭일", "해칭"],
        .sex: ["sex", "gender", "성별", "암수"],
        .animalClass: ["class", "animalclass", "분류", "강"],
        .species: ["species", "종", "품종"],
        .subspecies: ["subspecies", "아종"],
        .morph: ["morph", "locality", "모프", "로컬", "로컬리티"],
        .notes: ["notes", "note", "memo", "메모", "비고"],
    ]

    /// The field a key names, ignoring case, spaces and punctuation.
    static func field(for key: String) -> Field? {
        let normal = String(key.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil })
        return aliases.first { $0.value.contains(normal) }?.key
    }

    /// A subject kind from how people write it.
    static func kind(_ text: String) -> SubjectKind? {
        switch text.lowercased().trimmedWhitespace {
        case "pet", "pets", "animal", "반려동물", "동물", "펫": return .pets
        case "child", "children", "kid", "baby", "아이", "아기", "자녀": return .children
        default: return nil
        }
    }

    /// A date written as ISO (`2024-02-10`, `2024-02-10T14:30`) or with dots or slashes in
    /// year-month-day order, or given as a plist date (an instant, taken in the library's time
    /// zone: one library gives one birthday on every machine).
    static func date(_ value: Any, timeZone: TimeZone) -> RecordDate? {
        if let date = value as? Date {
            // A birth time is kept, as the wall clock of the library's zone.
            let local = LocalDateTime(date, in: timeZone)
            return RecordDate(year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute)
        }
        guard let text = (value as? String)?.trimmedWhitespace else { return nil }
        if let iso = RecordDate(iso8601: text) { return iso }
        let parts = text.split(whereSeparator: { ".-/ 년월일".contains($0) }).compactMap { Int($0) }
        guard parts.count == 3, parts[0] > 31 else { return nil }
        return RecordDate(year: parts[0], month: parts[1], day: parts[2])
    }

    enum Failure: Error, Equatable, CustomStringConvertible {
        case missing(String)
        case invalid(String)

        var description: String {
            switch self {
            case .missing(let what): return "no \(what)"
            case .invalid(let what): return what
            }
        }
    }

    /// A profile from key-value pairs; `defaultKind` applies when none is given.
    static func profile(from values: [String: Any], defaultKind: SubjectKind?, timeZone: TimeZone) -> Result<SubjectProfile, Failure> {
        var byField: [Field: Any] = [:]
        for (key, value) in values {
            if let field = field(for: key), byField[field] == nil { byField[field] = value }
        }
        func text(_ field: Field) -> String? {
            guard let value = byField[field] else { return nil }
            let string = (value as? String) ?? (value as? NSNumber).map { "\($0)" }
            return string.flatMap { $0.trimmedWhitespace.isEmpty ? nil : $0.trimmedWhitespace }
        }
        guard let name = text(.name) else { return .failure(.missing("name")) }
        // An id may carry its kind (`pets/rex`); a species, class or morph is only a pet's.
        let qualified = text(.id).flatMap { try? Subject(parsing: $0) }
        let animalFields = [Field.species, .animalClass, .subspecies, .morph].contains { text($0) != nil }
        guard let kind = text(.kind).flatMap(ProfileFields.kind) ?? qualified?.kind ?? defaultKind ?? (animalFields ? .pets : nil) else {
            return .failure(.missing("kind for '\(name)' (pets or children)"))
        }
        guard let idText = qualified?.id.rawValue ?? text(.id) else { return .failure(.missing("id for '\(name)'")) }
        guard let id = try? SubjectID(idText) else {
            return .failure(.invalid("'\(idText)' is not a subject id: an id is \(SubjectID.rule)"))
        }
        var born: RecordDate?
        if let value = byField[.born] {
            guard let date = date(value, timeZone: timeZone) else { return .failure(.invalid("'\(value)' is not a birth date")) }
            born = date
        }
        var sex: Sex?
        if let sexText = text(.sex) {
            guard let read = Sex(reading: sexText) else { return .failure(.invalid("\(ProfileError.invalidSex(sexText))")) }
            sex = read
        }
        let aliasList: [String]
        if let array = byField[.aliases] as? [String] {
            aliasList = array
        } else {
            aliasList = text(.aliases)?.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "/" })
                .map { String($0).trimmedWhitespace } ?? []
        }
        return .success(SubjectProfile(subject: Subject(kind: kind, id: id), name: name, aliases: aliasList, born: born,
                                       sex: sex, animalClass: text(.animalClass), species: text(.species),
                                       subspecies: text(.subspecies), morph: text(.morph), notes: text(.notes)))
    }
}
