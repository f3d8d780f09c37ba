/// The days "dossier today" greets: a child's birthdays, 100th day (백일) and first birthday
/// (돌), which Korean families celebrate as their own feasts, and a pet's hatch day.
public enum AnniversaryKind: String, Codable, Sendable {
    /// A child's 2nd, 3rd, ... birthday (the 1st is `firstBirthday`).
    case birthday
    /// A pet's hatch or birth day, every year from the first.
    case hatchDay
    /// A child's 100th day, the birth date counting as day 1.
    case hundredthDay
    /// A child's first birthday.
    case firstBirthday
}
