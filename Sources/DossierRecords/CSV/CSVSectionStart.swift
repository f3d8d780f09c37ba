/// A row with no date that starts a new table inside one file, as apps that export several
/// tables into one file write them (Hatch: `=== BEGIN Feedings ===`, then that table's own
/// header and rows; others leave a blank line and start a new header).
enum CSVSectionStart: Equatable {
    /// `=== BEGIN Feedings ===`, `[Diapers]`, `## Sleep ##`: the name of the table that follows.
    case marker(String)
    /// `=== END Feedings ===`: closes a table; nothing follows from it.
    case end
    /// A new header: cells that are all words, at least one naming a date or time column and
    /// another some other role, and no date or number among them.
    case header

    /// What the row starts, if it starts anything; only asked of rows with no date.
    init?(row: CSVRow) {
        let cells = row.fields.map(\.trimmedWhitespace).filter { !$0.isEmpty }
        if cells.count == 1, let marker = CSVSectionStart.markerLine(cells[0]) {
            self = marker
            return
        }
        guard cells.count >= 2,
              cells.allSatisfy({ CSVTimestamp.parse($0) == nil && CSVNumber.parse($0, decimalComma: false) == nil }) else { return nil }
        let roles = cells.map(CSVColumns.role(of:))
        guard roles.contains(where: { $0 == .date || $0 == .time }),
              roles.filter({ $0 != .text && $0 != .date && $0 != .time }).count >= 1
        else { return nil }
        self = .header
    }

    private static func markerLine(_ cell: String) -> CSVSectionStart? {
        let decorations = Set("=-#*[]<>~:")
        guard cell.first.map(decorations.contains) == true || cell.uppercased().hasPrefix("BEGIN ") || cell.uppercased().hasPrefix("END ")
        else { return nil }
        var name = cell.trimmingCharacters(in: decorations)
        let words = name.split(separator: " ", maxSplits: 1)
        if words.first?.uppercased() == "END" { return .end }
        if words.first?.uppercased() == "BEGIN" { name = words.count > 1 ? String(words[1]) : "" }
        name = name.trimmingCharacters(in: decorations)
        return name.isEmpty ? nil : .marker(name)
    }
}

private extension String {
    func trimmingCharacters(in set: Set<Character>) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) || first.isWhitespace { text.removeFirst() }
        while let last = text.last, set.contains(last) || last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
