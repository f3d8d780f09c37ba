import DossierCore

/// What a measurement of one kind can be for one class of subject, in the unit records keep:
/// the bounds that let a number written without its unit be read in the only unit that makes it
/// plausible (a child's weight of 8.3 is kg, of 3,400 is g) and no other.
///
/// The bounds are wide on purpose (a premature newborn, a grown teenager; a hatchling gecko, a
/// grown tortoise): a value outside them is no one's, so the unit that puts it there is wrong.
/// Where one class spans more than a factor of 1,000 (a reptile may weigh 0.5 g or 100 kg), a
/// number from 0.5 to 100 is plausible as g and as kg, and is left for the person to say.
struct PlausibleRange: Hashable, Sendable {
    /// In the unit records keep for the dimension (g, cm, ml, min).
    let lower: Double
    let upper: Double
    /// Where the bounds come from.
    let source: String

    func contains(_ value: Double) -> Bool { value >= lower && value <= upper }

    /// The bounds for a measurement in `unit` (the dimension's own: g, cm, ml, min) of a subject
    /// of `subjectClass`; nil where nothing is known (a pet whose class is not known).
    static func of(_ unit: MeasurementUnit, for subjectClass: SubjectClass) -> PlausibleRange? {
        table[subjectClass]?[unit]
    }

    /// Per class and dimension. Sources, in short (the bounds are rounded outward from them):
    /// children from the WHO Child Growth Standards (2006) and CDC growth charts (2000) to 18
    /// years, and Intergrowth-21st for preterm newborns (from about 0.3 kg, 25 cm); feed volumes
    /// from the AAP's guidance (a newborn's 15-60 ml to a toddler's 240 ml bottle, 500 ml to be
    /// safe); sleep bouts from the AASM's paediatric consensus (naps to 16 h). Pets from keepers'
    /// references for the species people keep: reptiles from a 0.5 g hatchling anole to a 100 kg
    /// sulcata tortoise and a 6 m reticulated python; amphibians from a 0.2 g dart frog to a
    /// 3 kg cane toad; arthropods from a 0.01 g isopod to a 200 g goliath birdeater (30 cm);
    /// mammals from a 1 g pinky to a 100 kg dog; birds from a 7 g finch to a 10 kg goose; fish
    /// from a 0.05 g fry to a 30 kg koi (1 m).
    private static let table: [SubjectClass: [MeasurementUnit: PlausibleRange]] = [
        .child: [
            .grams: PlausibleRange(lower: 300, upper: 150_000, source: "WHO/CDC growth charts, Intergrowth-21st"),
            .centimetres: PlausibleRange(lower: 25, upper: 210, source: "WHO/CDC growth charts, Intergrowth-21st"),
            // From 10 ml: a bottle of 5 or 8 with no unit is ounces as often as millilitres.
            .millilitres: PlausibleRange(lower: 10, upper: 500, source: "AAP infant feeding guidance"),
            .minutes: PlausibleRange(lower: 5, upper: 16 * 60, source: "AASM paediatric sleep consensus"),
        ],
        .infant: [
            .grams: PlausibleRange(lower: 300, upper: 20_000, source: "WHO Child Growth Standards, Intergrowth-21st"),
            .centimetres: PlausibleRange(lower: 25, upper: 100, source: "WHO Child Growth Standards, Intergrowth-21st"),
            .millilitres: PlausibleRange(lower: 10, upper: 360, source: "AAP infant feeding guidance"),
            .minutes: PlausibleRange(lower: 5, upper: 16 * 60, source: "AASM paediatric sleep consensus"),
        ],
        .animal("reptile"): [
            .grams: PlausibleRange(lower: 0.5, upper: 100_000, source: "keepers' references, hatchling anole to sulcata tortoise"),
            .centimetres: PlausibleRange(lower: 2, upper: 600, source: "keepers' references, hatchling gecko to reticulated python"),
        ],
        .animal("amphibian"): [
            .grams: PlausibleRange(lower: 0.2, upper: 3_000, source: "keepers' references, dart frog to cane toad"),
            .centimetres: PlausibleRange(lower: 1, upper: 100, source: "keepers' references, dart frog to giant salamander"),
        ],
        .animal("arthropod"): [
            .grams: PlausibleRange(lower: 0.01, upper: 200, source: "keepers' references, isopod to goliath birdeater"),
            .centimetres: PlausibleRange(lower: 0.3, upper: 30, source: "keepers' references, isopod to giant centipede"),
        ],
        .animal("mammal"): [
            .grams: PlausibleRange(lower: 1, upper: 100_000, source: "keepers' references, pinky mouse to large dog"),
            .centimetres: PlausibleRange(lower: 2, upper: 150, source: "keepers' references, pinky mouse to large dog"),
        ],
        .animal("bird"): [
            .grams: PlausibleRange(lower: 5, upper: 10_000, source: "keepers' references, finch to goose"),
            .centimetres: PlausibleRange(lower: 7, upper: 120, source: "keepers' references, finch to macaw"),
        ],
        .animal("fish"): [
            .grams: PlausibleRange(lower: 0.05, upper: 30_000, source: "keepers' references, fry to koi"),
            .centimetres: PlausibleRange(lower: 0.5, upper: 100, source: "keepers' references, fry to koi"),
        ],
    ]
}
