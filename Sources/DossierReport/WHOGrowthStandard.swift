import DossierRecords

/// The WHO Child Growth Standards the child charts draw: weight-for-age and length/height-for-age,
/// monthly from birth to 5 years, for girls and boys.
public enum WHOGrowthStandard {
    public enum Indicator: String, Sendable {
        case weightForAge = "weight-for-age"
        case lengthForAge = "length-for-age"
    }

    /// Every table shipped, as read from its text: what `WHOGrowthTableTests` checks row by row.
    public static let tables: [WHOGrowthTable] = [
        WHOGrowthTables.weightForAgeBoys, WHOGrowthTables.weightForAgeGirls,
        WHOGrowthTables.lengthForAgeBoys, WHOGrowthTables.heightForAgeBoys,
        WHOGrowthTables.lengthForAgeGirls, WHOGrowthTables.heightForAgeGirls,
    ].map(WHOGrowthTable.init(text:))

    /// Months 0 to 60, one row each. Length-for-age is recumbent length to 23 months and standing
    /// height from 24, as WHO measures (its two tables both print month 24; the height one is
    /// taken, as a child of two is measured standing).
    public static func rows(_ indicator: Indicator, female: Bool) -> [WHOGrowthTable.Row] {
        let (first, second) = female ? (2, 3) : (0, 1)
        switch indicator {
        case .weightForAge:
            return tables[female ? 1 : 0].rows
        case .lengthForAge:
            let base = 2
            return tables[base + first].rows.filter { $0.month < 24 } + tables[base + second].rows
        }
    }

    /// The source named under each chart.
    public static let citation = "WHO Child Growth Standards (2006), World Health Organization: "
        + "the monthly z-score tables for birth to 5 years (LMS)."

    /// Whether a child's profile says which table to take; nil when its sex is not known.
    static func isFemale(_ sex: Sex?) -> Bool? {
        switch sex {
        case .female: return true
        case .male: return false
        default: return nil
        }
    }
}
