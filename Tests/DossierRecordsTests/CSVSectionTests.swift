import DossierCore
import Foundation
import Testing
@testable import DossierRecords

@Suite("Sections inside one CSV file: a marker line, or a new header after a blank line, starts a new table")
struct CSVSectionTests {
    func start(_ fields: [String], afterBreak: Bool = true) -> CSVSectionStart? {
        CSVSectionStart(row: CSVRow(line: 7, fields: fields), afterBreak: afterBreak)
    }

    @Test("Marker lines name the table that follows, a comma in the name included; END lines close one")
    func markerLines() {
        #expect(start(["=== BEGIN Diapers ===", "", ""]) == .marker("Diapers"))
        #expect(start(["=== BEGIN Sleep", " naps ===", ""]) == .marker("Sleep, naps"))
        #expect(start(["=== END Diapers ==="]) == .end)
        #expect(start(["## Weights ##"]) == .marker("Weights"))
        #expect(start(["[Sleep]"]) == .marker("Sleep"))
        #expect(CSVImporter.sectionName("=== BEGIN Feedings ===") == "Feedings")
    }

    @Test("Notes are no markers: a note cell away from the first column, one mark on a side, a rule line, words alone")
    func notesAreNoMarkers() {
        #expect(start(["", "", "** weighed her at clinic **"]) == nil)
        #expect(start(["- spat up after", "", ""]) == nil)
        #expect(start(["END of bottle"]) == nil)
        #expect(start(["----------"]) == nil)
        #expect(start(["slept well", "", ""]) == nil)
    }

    @Test("A row of header words with a date or time column among them is a new header after a blank line; a data row without a date is not")
    func headerRows() {
        #expect(start(["Time", "Diaper Type", "Notes"]) == .header)
        #expect(start(["Start Time", "End Time", "Feeding Type", "Amount", "Unit", "Notes"]) == .header)
        #expect(start(["Time", "Diaper Type", "Notes"], afterBreak: false) == nil)
        #expect(start(["", "Sleep", "", "Day"]) == nil)
        #expect(start(["", "Wet", "leaked"]) == nil)
        #expect(start(["Notes", "Comment"]) == nil)
    }
}
