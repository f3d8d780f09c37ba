import DossierCore
import Foundation
import Testing
@testable import DossierRecords

@Suite("Sections inside one CSV file: a marker line, or a new header, starts a new table")
struct CSVSectionTests {
    @Test("Marker lines name the table that follows; END lines close one; other single cells are no marker")
    func markerLines() {
        #expect(CSVSectionStart(row: CSVRow(line: 7, fields: ["=== BEGIN Diapers ===", "", ""])) == .marker("Diapers"))
        #expect(CSVSectionStart(row: CSVRow(line: 7, fields: ["=== END Diapers ==="])) == .end)
        #expect(CSVSectionStart(row: CSVRow(line: 7, fields: ["[Sleep]"])) == .marker("Sleep"))
        #expect(CSVSectionStart(row: CSVRow(line: 7, fields: ["slept well", "", ""])) == nil)
        #expect(CSVImporter.sectionName("=== BEGIN Feedings ===") == "Feedings")
    }

    @Test("A row of header words with a date or time column among them is a new header; a data row without a date is not")
    func headerRows() {
        #expect(CSVSectionStart(row: CSVRow(line: 8, fields: ["Time", "Diaper Type", "Notes"])) == .header)
        #expect(CSVSectionStart(row: CSVRow(line: 8, fields: ["Start Time", "End Time", "Feeding Type", "Amount", "Unit", "Notes"])) == .header)
        #expect(CSVSectionStart(row: CSVRow(line: 8, fields: ["", "Wet", "leaked"])) == nil)
        #expect(CSVSectionStart(row: CSVRow(line: 8, fields: ["Notes", "Comment"])) == nil)
    }
}
