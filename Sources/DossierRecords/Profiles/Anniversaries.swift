import DossierCore

/// What there is to celebrate on a given day, for "dossier today".
public enum Anniversaries {
    /// The anniversaries of a subject born (or hatched) on `born` that fall on `day`. Times are
    /// ignored. Nothing on the birth day itself or before it. A child has a 100th day, a first
    /// birthday (reported as `firstBirthday` only, not also as birthday 1) and birthdays from
    /// the 2nd; a pet has hatch days from the 1st. A 29 February birth is celebrated on
    /// 28 February in common years.
    public static func on(_ day: RecordDate, born: RecordDate, isChild: Bool) -> [Anniversary] {
        let day = day.dayOnly
        let born = born.dayOnly
        guard day > born else { return [] }
        var found: [Anniversary] = []
        if isChild, CivilDays.adding(99, to: born) == day {
            found.append(Anniversary(kind: .hundredthDay, date: day, number: nil))
        }
        let years = day.year - born.year
        if years >= 1, CivilDays.anniversary(of: born, in: day.year) == day {
            let kind: AnniversaryKind = !isChild ? .hatchDay : years == 1 ? .firstBirthday : .birthday
            found.append(Anniversary(kind: kind, date: day, number: years))
        }
        return found
    }
}
