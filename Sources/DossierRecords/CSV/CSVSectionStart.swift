import Foundation

/// A row with no date that starts a new table inside one file, as apps that export several
/// tables into one file write them (Hatch: `=== BEGIN Feedings ===`, then that table's own
/// header and rows; others leave a blank line and start a new header).
///
/// Strict on purpose: a note row (`,,** weighed at clinic **`), a row of words with an empty
/// first cell (`,Sleep,,Day`) or a line of dashes under a note is a row with a problem, never a
/// new table that would misread every row after it.
enum CSVSectionStart: Equatable {
    /// `=== BEGIN Feedings ===`, `## Sleep, naps ##`, `[Diapers]`: the name of the table that
    /// should follow (the importer makes it one only if a header comes next).
    case marker(String)
    /// `=== END Feedings ===`: closes a table; nothing follows from it.
    case end
    /// A new header, after a blank line or a marker: cells that are all words, the first one
    /// filled, at least one naming a date or time column and another some other role, and no
    /// date or number among them.
    case header

    /// What the row starts, if it starts anything; only asked of rows with no date.
    /// `afterBreak`: a blank line or a marker came just before it.
    init?(row: CSVRow, afterBreak: Bool) {
        let cells = row.fields.map(\.trimmedWhitespace)
        guard let first = cells.first, !first.isEmpty else { return nil }
        let filled = cells.filter { !$0.isEmpty }
        // A marker is the whole line: `=== BEGIN Sleep, naps ===` was split at its comma.
        if let marker = CSVSectionStart.markerLine(filled.joined(separator: ", ")) {
            self = marker
            return
        }
        guard afterBreak, filled.count >= 2,
              filled.allSatisfy({ CSVTimestamp.parse($0) == nil && CSVNumber.parse($0, decimalComma: false) == nil }) else { return nil }
        let roles = filled.map(CSVColumns.role(of:))
        guard roles.contains(where: { $0 == .date || $0 == .time }),
              roles.contains(where: { $0 != .text && $0 != .date && $0 != .time })
        else { return nil }
        self = .header
    }

    /// `=== BEGIN X ===`, `## X ##`, `*** X ***`, `--- X ---` (the same mark at least twice on
    /// each side), `[X]`; `END` after the marks closes a table.
    private static func markerLine(_ line: String) -> CSVSectionStart? {
        let inside: String
        if let match = line.wholeMatch(of: /([=#*~\-])\1+\s*(.*?)\s*([=#*~\-])\3+/), match.1 == match.3 {
            inside = String(match.2)
        } else if let match = line.wholeMatch(of: /\[\s*([^\[\]]+?)\s*\]/) {
            inside = String(match.1)
        } else {
            return nil
        }
        let words = inside.split(separator: " ", maxSplits: 1)
        switch words.first?.uppercased() {
        case "END"?: return .end
        case "BEGIN"?, "START"?: return words.count > 1 ? .marker(String(words[1])) : nil
        default: return inside.isEmpty ? nil : .marker(inside)
        }
    }
}
