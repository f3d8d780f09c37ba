import DossierCore
import Testing
@testable import DossierRecords

@Suite("Anniversaries for \"dossier today\": birthdays, 100th day, first birthday, hatch days")
struct AnniversaryTests {
    static func day(_ text: String) -> RecordDate { RecordDate(iso8601: text)! }

    static func child(_ today: String, born: String) -> [Anniversary] {
        Anniversaries.on(day(today), born: day(born), isChild: true)
    }

    static func pet(_ today: String, hatched: String) -> [Anniversary] {
        Anniversaries.on(day(today), born: day(hatched), isChild: false)
    }

    @Test("A child's 100th day, first birthday and later birthdays; nothing on other days")
    func child() {
        let born = "2024-01-25"
        #expect(Self.child("2024-05-03", born: born) == [Anniversary(kind: .hundredthDay, date: Self.day("2024-05-03"), number: nil)])
        #expect(Self.child("2024-05-02", born: born) == [])
        #expect(Self.child("2024-05-04", born: born) == [])
        #expect(Self.child("2025-01-25", born: born) == [Anniversary(kind: .firstBirthday, date: Self.day("2025-01-25"), number: 1)])
        #expect(Self.child("2026-01-25", born: born) == [Anniversary(kind: .birthday, date: Self.day("2026-01-25"), number: 2)])
        #expect(Self.child("2027-01-25", born: born) == [Anniversary(kind: .birthday, date: Self.day("2027-01-25"), number: 3)])
        #expect(Self.child("2027-01-24", born: born) == [])
    }

    @Test("Nothing on the birth day itself, nor before it")
    func birthDay() {
        #expect(Self.child("2024-01-25", born: "2024-01-25") == [])
        #expect(Self.child("2023-01-25", born: "2024-01-25") == [])
        #expect(Self.pet("2024-01-25", hatched: "2024-01-25") == [])
    }

    @Test("A pet has hatch days from the first year, and no 100th day")
    func pet() {
        let hatched = "2023-06-01"
        #expect(Self.pet("2024-06-01", hatched: hatched) == [Anniversary(kind: .hatchDay, date: Self.day("2024-06-01"), number: 1)])
        #expect(Self.pet("2026-06-01", hatched: hatched) == [Anniversary(kind: .hatchDay, date: Self.day("2026-06-01"), number: 3)])
        #expect(Self.pet("2023-09-08", hatched: hatched) == [])
        #expect(Self.child("2023-09-08", born: hatched) == [Anniversary(kind: .hundredthDay, date: Self.day("2023-09-08"), number: nil)])
    }

    @Test("A 29 February birth is celebrated on 28 February in common years, on 29 February in leap years")
    func leapDay() {
        let born = "2024-02-29"
        #expect(Self.child("2025-02-28", born: born) == [Anniversary(kind: .firstBirthday, date: Self.day("2025-02-28"), number: 1)])
        #expect(Self.child("2025-03-01", born: born) == [])
        #expect(Self.child("2026-02-28", born: born) == [Anniversary(kind: .birthday, date: Self.day("2026-02-28"), number: 2)])
        #expect(Self.child("2028-02-28", born: born) == [])
        #expect(Self.child("2028-02-29", born: born) == [Anniversary(kind: .birthday, date: Self.day("2028-02-29"), number: 4)])
        #expect(Self.pet("2027-02-28", hatched: born) == [Anniversary(kind: .hatchDay, date: Self.day("2027-02-28"), number: 3)])
    }

    @Test("Times of day are ignored, and the anniversary's date is the day alone")
    func times() {
        #expect(Anniversaries.on(Self.day("2025-01-25T08:15+09:00"), born: Self.day("2024-01-25T23:40"), isChild: true)
            == [Anniversary(kind: .firstBirthday, date: Self.day("2025-01-25"), number: 1)])
    }

    @Test("Anniversaries agree with the derived fields' 100th day and first birthday")
    func agreesWithDerivedFields() {
        for birth in ["2024-01-25", "2024-02-29", "2023-12-01", "2023-11-30"] {
            let fields = ChildDerivedFields.compute(birth: Self.day(birth), asOf: Self.day("2030-01-01"))!
            #expect(Anniversaries.on(fields.hundredthDay, born: Self.day(birth), isChild: true).map(\.kind) == [.hundredthDay])
            #expect(Anniversaries.on(fields.firstBirthday, born: Self.day(birth), isChild: true).map(\.kind) == [.firstBirthday])
        }
    }
}
