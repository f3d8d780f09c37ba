import DossierReport
import Foundation
import Testing

@Suite("The WHO Child Growth Standards shipped with the report")
struct WHOGrowthTableTests {
    @Test("Every row's L, M and S give the row's printed SD-2 to SD+2 columns, to the table's one decimal")
    func everyRowReproducesItsPrintedColumns() throws {
        var checked = 0
        for table in WHOGrowthStandard.tables {
            #expect(!table.fileName.isEmpty, "a table names WHO's file it came from")
            for row in table.rows {
                for (z, column) in [(-2.0, "SD2neg"), (-1.0, "SD1neg"), (0.0, "SD0"), (1.0, "SD1"), (2.0, "SD2")] {
                    let printed = try #require(row.printed[column], "\(table.fileName) month \(row.month) has \(column)")
                    let value = WHOGrowthTable.value(l: row.l, m: row.m, s: row.s, z: z)
                    // WHO rounds to one decimal; a value on a rounding edge may round either way in
                    // the last bit, so within half a unit of the last place is the same value.
                    #expect(abs(value - printed) <= 0.05 + 1e-9,
                            "\(table.fileName) month \(row.month) \(column): L M S give \(value), WHO printed \(printed)")
                    checked += 1
                }
            }
        }
        #expect(checked == (61 + 61 + 25 + 37 + 25 + 37) * 5)
    }

    @Test("The tables cover every month from birth to 5 years, for girls and boys, weight and length or height")
    func monthlyFromBirthToFiveYears() {
        for indicator in [WHOGrowthStandard.Indicator.weightForAge, .lengthForAge] {
            for female in [false, true] {
                #expect(WHOGrowthStandard.rows(indicator, female: female).map(\.month) == Array(0...60))
            }
        }
        #expect(WHOGrowthStandard.tables.map(\.fileName) == [
            "wfa_boys_0_5_zscores.txt", "wfa_girls_0_5_zscores.txt", "lhfa_boys_0_2_zscores.txt", "lhfa_boys_2_5_zscores.txt",
            "lhfa_girls_0_2_zscores.txt", "lhfa_girls_2_5_zscores.txt",
        ])
    }

    @Test("The medians are WHO's: a boy's weight at birth 3.3464 kg, a girl's height at 5 years 109.4233 cm")
    func knownMedians() {
        #expect(WHOGrowthStandard.rows(.weightForAge, female: false).first?.m == 3.3464)
        #expect(WHOGrowthStandard.rows(.lengthForAge, female: true).last?.m == 109.4233)
        #expect(WHOGrowthStandard.rows(.lengthForAge, female: false)[23].m == 86.9410)
        #expect(WHOGrowthStandard.rows(.lengthForAge, female: false)[24].m == 87.1161)
    }
}
