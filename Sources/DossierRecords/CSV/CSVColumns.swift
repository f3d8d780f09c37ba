import DossierCore
import Foundation

/// Maps a CSV file's columns to what records need, from the header row alone: which column is
/// the date, the time, the subject's name, the kind of entry, the note, which are measurements
/// and in what unit; every other column is kept as a named text field.
///
/// Headers are matched in English and Korean, ignoring case, spaces and punctuation. A unit in
/// the header (`Amount (oz.)`, `무게(g)`, `Weight [kg]`, `weight_kg`) makes the column a
/// measurement converted to the unit records keep (g, cm, ml, min, count); known measurement
/// names without one (weight, 키, amount, ...) and `Quantity` are numbers whose unit is settled
/// row by row (`UnitSettler`), never assumed. The first column of a role takes it; a second
/// date or note column is kept as a text field rather than dropped.
public struct CSVColumns: Sendable {
    public let columns: [CSVColumn]
    /// Whether `45,5` is 45.5: files delimited by `;` are the ones written where the comma is the
    /// decimal mark.
    public let decimalComma: Bool
    /// The order each date or time column's year-last dates are read in, by column index, as
    /// decided from all of the column's values (`CSVDateOrderScan`).
    public private(set) var dateOrders: [Int: CSVDateOrderDecision] = [:]
    /// The order for a column with no decision (its first rows held no year-last date, a later
    /// one does): the library's setting. Nil reads each value on its own (13/1 is day-first).
    public private(set) var undecidedOrder: CSVDateOrder?

    /// Values spreadsheets write for "nothing here" in a number column.
    private static let blanks: Set<String> = ["-", "—", "–", "null", "n/a", "na", "none", "nil", "?"]

    public init(header: [String], decimalComma: Bool = false) {
        self.decimalComma = decimalComma
        var taken: Set<CSVColumnRole> = []
        var columns: [CSVColumn] = []
        for (index, header) in header.enumerated() {
            var role = CSVColumns.role(of: header)
            // `RecordCategory` then `RecordType`: the second names the first's entry more precisely.
            if role == .kind, taken.contains(.kind) { role = .subKind }
            switch role {
            case .date, .time, .endDate, .subject, .kind, .subKind, .note, .unit:
                if taken.contains(role) { role = .text } else { taken.insert(role) }
            case .measurement, .unitlessMeasurement, .series, .text:
                break
            }
            columns.append(CSVColumn(index: index, header: header, role: role))
        }
        self.columns = columns
    }

    private init(columns: [CSVColumn], decimalComma: Bool) {
        self.columns = columns
        self.decimalComma = decimalComma
    }

    /// The same columns with their dates read in the orders given.
    public func withDateOrders(_ orders: [Int: CSVDateOrderDecision], undecided: CSVDateOrder?) -> CSVColumns {
        var columns = self
        columns.dateOrders = orders
        columns.undecidedOrder = undecided
        return columns
    }

    /// The same columns with the one at `index` holding the entries' dates (found by its values:
    /// `Datum`; or the end column, `Shed completed`, when it is the only one with dates).
    public func withDateColumn(at index: Int, foundByValues: Bool = true) -> CSVColumns {
        CSVColumns(columns: columns.map { column in
            column.index == index ? CSVColumn(index: index, header: column.header, role: .date, foundByValues: foundByValues) : column
        }, decimalComma: decimalComma).withDateOrders(dateOrders, undecided: undecidedOrder)
    }

    /// The same columns with the one at `index` holding the unit of the row's unitless number
    /// (found by its values: `Extra data` = `lbs`).
    public func withUnitColumn(at index: Int) -> CSVColumns {
        CSVColumns(columns: columns.map { column in
            column.index == index ? CSVColumn(index: index, header: column.header, role: .unit, foundByValues: true) : column
        }, decimalComma: decimalComma).withDateOrders(dateOrders, undecided: undecidedOrder)
    }

    /// The first column kept as text whose values (four in five of its non-empty cells in
    /// `rows`, at least two) are units, in a file with a number column that names none: that
    /// number's unit column (`Quantity`, then `Extra data` holding `lbs`).
    public func unitColumnByValues(in rows: [[String]]) -> Int? {
        guard column(.unit) == nil, columns.contains(where: { if case .unitlessMeasurement = $0.role { true } else { false } })
        else { return nil }
        for column in columns where column.role == .text {
            var values = 0, units = 0
            for row in rows where column.index < row.count {
                let cell = row[column.index].trimmedWhitespace
                guard !cell.isEmpty else { continue }
                values += 1
                // `S`, `M`, `L` are sizes as often as units: one letter never makes a unit column.
                if CSVHeaderVocabulary.key(cell).count > 1, CSVHeaderVocabulary.isUnit(cell) { units += 1 }
            }
            if units >= 2, units * 5 >= values * 4 { return column.index }
        }
        return nil
    }

    /// The columns taken for a measurement with no unit (`Amount`, `Quantity`) whose values in
    /// `rows` go below zero in at least half of them (at least two): money moving both ways, a
    /// bank statement's, never an amount fed or weighed. They are kept as text.
    public func signedColumns(in rows: [[String]]) -> [Int] {
        columns.compactMap { column -> Int? in
            guard case .unitlessMeasurement = column.role else { return nil }
            let values = rows.compactMap { row in
                column.index < row.count ? CSVNumber.parse(row[column.index].trimmedWhitespace, decimalComma: decimalComma) : nil
            }
            return values.count >= 2 && values.filter({ $0 < 0 }).count * 2 >= values.count ? column.index : nil
        }
    }

    /// The same columns with each one at an index of `series` holding that subject's series.
    func withSeries(_ series: [Int: SeriesColumn]) -> CSVColumns {
        CSVColumns(columns: columns.map { column in
            guard let found = series[column.index] else { return column }
            let role: CSVColumnRole
            if case .measurement(_, let unit, let factor) = column.role {
                role = .series(subject: found.subject, unit: unit, factor: factor)
            } else {
                role = .series(subject: found.subject, unit: found.unit, factor: found.factor)
            }
            return CSVColumn(index: column.index, header: column.header, role: role, foundByValues: true)
        }, decimalComma: decimalComma).withDateOrders(dateOrders, undecided: undecidedOrder)
    }

    /// The same columns with the one at `index` kept as text: a role its values did not bear out.
    public func withRoleDropped(at index: Int) -> CSVColumns {
        CSVColumns(columns: columns.map { column in
            column.index == index ? CSVColumn(index: index, header: column.header, role: .text) : column
        }, decimalComma: decimalComma).withDateOrders(dateOrders, undecided: undecidedOrder)
    }

    /// The same columns with the end column as the date column when no other column is one
    /// (`Snake,Shed completed,Notes`: the shed is dated by its end).
    public var withEndAsDate: CSVColumns {
        guard column(.date) == nil, column(.time) == nil, let end = column(.endDate) else { return self }
        return withDateColumn(at: end.index, foundByValues: false)
    }

    /// The first column kept as text most of whose values are dates (four in five of its
    /// non-empty cells in `rows`, at least two) under a header that is no date itself: the date
    /// column of a file whose header does not name one (`Datum`, `Shed completed`). A first
    /// line of dates is no header, so a log of `2024-03-01, fed` lines is not taken for a table.
    public func dateColumnByValues(in rows: [[String]]) -> Int? {
        for column in columns where column.role == .text {
            guard CSVTimestamp.parse(column.header.trimmedWhitespace)?.hasDate != true else { continue }
            var values = 0, dates = 0
            for row in rows where column.index < row.count {
                let cell = row[column.index].trimmedWhitespace
                guard !cell.isEmpty else { continue }
                values += 1
                if CSVTimestamp.parse(cell)?.hasDate == true { dates += 1 }
            }
            if dates >= 2, dates * 5 >= values * 4 { return column.index }
        }
        return nil
    }

    /// The columns whose cells may hold dates: the date column, the time column (which may hold
    /// whole timestamps) and the end column.
    public var dateColumns: [CSVColumn] {
        columns.filter { $0.role == .date || $0.role == .time || $0.role == .endDate }
    }

    private func order(of column: CSVColumn) -> CSVDateOrder? {
        dateOrders[column.index]?.order ?? undecidedOrder
    }

    /// The same columns with the one at `index` holding the subject's name (found by its values:
    /// a baby tracker's first column is titled "Baby", or the child's name, or nothing known).
    public func withSubjectColumn(at index: Int) -> CSVColumns {
        CSVColumns(columns: columns.map { column in
            if column.index == index { return CSVColumn(index: index, header: column.header, role: .subject, foundByValues: true) }
            return column.role == .subject ? CSVColumn(index: column.index, header: column.header, role: .text) : column
        }, decimalComma: decimalComma).withDateOrders(dateOrders, undecided: undecidedOrder)
    }

    /// From the header row of a file read with `dialect`.
    public init(header: CSVRow, dialect: CSVDialect) {
        self.init(header: header.fields, decimalComma: dialect.delimiter == ";")
    }

    /// The column that took a role, if any did.
    public func column(_ role: CSVColumnRole) -> CSVColumn? {
        columns.first { $0.role == role }
    }

    public static func role(of header: String) -> CSVColumnRole {
        let (name, bracket) = CSVHeaderVocabulary.split(header: header)
        let key = CSVHeaderVocabulary.key(name)
        if let bracket {
            if let (dimension, factor) = CSVHeaderVocabulary.unit(bracket, forName: key) {
                return .measurement(name: name.isEmpty ? header : name, unit: dimension.unit, factor: factor)
            }
            // `Weight (stone)`: a unit we do not know is kept as text, never read as grams.
            if CSVHeaderVocabulary.measurementNames[key] != nil { return .text }
        }
        if CSVHeaderVocabulary.dateWords.contains(key) { return .date }
        if CSVHeaderVocabulary.timeWords.contains(key) { return .time }
        if CSVHeaderVocabulary.endWords.contains(key) || CSVColumns.namesAnEnd(key) { return .endDate }
        if CSVHeaderVocabulary.subjectWords.contains(key) { return .subject }
        if CSVHeaderVocabulary.kindWords.contains(key) { return .kind }
        // `Diaper Type`, `Feeding Method`: what kind of diaper or feeding, more precisely.
        if CSVHeaderVocabulary.subKindWords.contains(key) || (key.count > 4 && (key.hasSuffix("type") || key.hasSuffix("method"))) {
            return .subKind
        }
        if let count = CSVHeaderVocabulary.mealCounts[key] { return .measurement(name: count, unit: .count, factor: 1) }
        if CSVHeaderVocabulary.noteWords.contains(key) { return .note }
        if let dimension = CSVHeaderVocabulary.measurementNames[key] {
            // `Minutes`, `Count`: the name is its unit. `Weight`, `Amount`: the unit is not said.
            if dimension == .count { return .measurement(name: name, unit: .count, factor: 1) }
            if let factor = CSVHeaderVocabulary.factor(of: name, in: dimension.unit) {
                return .measurement(name: name, unit: dimension.unit, factor: factor)
            }
            return .unitlessMeasurement(name: name, dimension: dimension.unit)
        }
        if CSVHeaderVocabulary.quantityWords.contains(key) { return .unitlessMeasurement(name: name, dimension: nil) }
        if CSVHeaderVocabulary.unitWords.contains(key) { return .unit }
        // `grams`, `kg`, `oz`: a header that is only a unit measures what the unit does. One
        // letter (`g`, `m`, `l`) is too easily a column's initial to be taken for a unit.
        // Nor is a word that is a unit only sometimes (`Min` next to `Max` is a minimum).
        if bracket == nil, key.count > 1, !CSVHeaderVocabulary.unitOnlySometimes.contains(key),
           let (dimension, factor) = CSVHeaderVocabulary.unit(name, forName: "") {
            return .measurement(name: dimension.measurementName, unit: dimension.unit, factor: factor)
        }
        return .text
    }

    /// `Shed completed`, `Feeding end`, `End Time`: a header that ends with (or starts with) a
    /// word saying the entry was over.
    static func namesAnEnd(_ key: String) -> Bool {
        ["completed", "finished", "ended", "endtime", "enddate", "end", "종료", "終了"].contains { word in
            key.count > word.count && (key.hasSuffix(word) || key.hasPrefix(word))
        } && !CSVHeaderVocabulary.measurementNames.keys.contains(key)
    }

    /// The row's cells read from its bytes: strings are made only of the text kept (names,
    /// kinds, notes, text columns); dates and numbers are read in place.
    public func values(of row: CSVRow) -> CSVRowValues {
        var values = CSVRowValues(line: row.line)
        row.bytes.withUnsafeBufferPointer { bytes in
            var dateCell: Cell?, timeCell: Cell?, endCell: Cell?
            for index in 0..<row.count {
                let raw = UnsafeBufferPointer(rebasing: bytes[row.range(of: index)])
                let cell = raw.trimmedWhitespace
                guard index < columns.count else {
                    if !cell.isEmpty { values.fields["column \(index + 1)"] = String(decoding: raw, as: UTF8.self) }
                    continue
                }
                let column = columns[index]
                guard !cell.isEmpty else { continue }
                switch column.role {
                case .date: dateCell = Cell(column: column, text: cell)
                case .time: timeCell = Cell(column: column, text: cell)
                case .endDate: endCell = Cell(column: column, text: cell)
                case .subject: values.subjectName = String(decoding: cell, as: UTF8.self)
                case .kind: values.kind = String(decoding: cell, as: UTF8.self)
                case .subKind: values.subKind = String(decoding: cell, as: UTF8.self)
                case .note: values.note = String(decoding: cell, as: UTF8.self)
                case .measurement(let name, let unit, let factor):
                    if let value = measurementValue(cell, unit: unit, factor: factor, name: name) {
                        values.measurements.append(RecordMeasurement(
                            name: name, value: value, unit: unit,
                            decimals: RecordMeasurement.shownDecimals(ofWritten: cell, convertedBy: factor)))
                    } else if unit == .count, let flag = CSVColumns.flag(cell) {
                        // `Refused: yes`, `Ate: no`: a count of one meal, or none.
                        values.measurements.append(RecordMeasurement(name: name, value: flag ? 1 : 0, unit: .count))
                    } else {
                        notANumber(cell, in: column, values: &values)
                    }
                case .unitlessMeasurement(let name, let dimension):
                    if let number = CSVNumber.parse(cell, decimalComma: decimalComma).flatMap(CSVColumns.rounded) {
                        values.unitless.append(UnitlessMeasurement(header: column.header, name: name, dimension: dimension,
                                                                   value: number, written: String(decoding: cell, as: UTF8.self)))
                    } else if let dimension, let value = measurementValue(cell, unit: dimension, factor: 1, name: name) {
                        values.measurements.append(RecordMeasurement(name: name, value: value, unit: dimension))
                    } else if dimension == nil, let quantity = CSVColumns.numberAndUnit(cell, decimalComma: decimalComma) {
                        // `8.2 oz` in a `Quantity` column: what an ounce is, the row's kind says.
                        values.unitless.append(UnitlessMeasurement(header: column.header, name: name, dimension: nil,
                                                                   value: quantity.number, written: String(decoding: cell, as: UTF8.self),
                                                                   writtenUnit: quantity.unit))
                    } else {
                        notANumber(cell, in: column, values: &values)
                    }
                case .unit:
                    values.unitText = String(decoding: cell, as: UTF8.self)
                case .series(let subject, let unit, let factor):
                    let written = String(decoding: cell, as: UTF8.self)
                    let text = "\(column.header): \(written)"
                    if let unit, let value = measurementValue(cell, unit: unit, factor: factor, name: "") {
                        values.series.append(CSVSeriesValue(subject: subject, measurement: RecordMeasurement(
                            name: UnitSettler.what(unit), value: value, unit: unit,
                            decimals: RecordMeasurement.shownDecimals(ofWritten: cell, convertedBy: factor)),
                            text: text))
                    } else if unit == nil, let number = CSVNumber.parse(cell, decimalComma: decimalComma).flatMap(CSVColumns.rounded) {
                        values.series.append(CSVSeriesValue(subject: subject, unitless: UnitlessMeasurement(
                            header: column.header, name: column.header, dimension: nil, value: number, written: written), text: text))
                    } else if unit == nil, let quantity = CSVColumns.numberAndUnit(cell, decimalComma: decimalComma) {
                        values.series.append(CSVSeriesValue(subject: subject, unitless: UnitlessMeasurement(
                            header: column.header, name: column.header, dimension: nil, value: quantity.number, written: written,
                            writtenUnit: quantity.unit), text: text))
                    } else {
                        notANumber(cell, in: column, values: &values)
                    }
                case .text:
                    let key = column.header.trimmedWhitespace.isEmpty ? "column \(index + 1)" : column.header
                    values.fields[values.fields[key] == nil ? key : "\(key) (column \(index + 1))"] = String(decoding: raw, as: UTF8.self)
                }
            }
            values.date = date(dateCell, timeCell, problems: &values.problems)
            if let endCell { values.endDate = endDate(endCell, start: values.date, problems: &values.problems) }
        }
        CSVColumns.countWhatWasEaten(&values.measurements, problems: &values.problems)
        return values
    }

    /// A refused meal is never counted as eaten: with `refused` and no `eaten`, what was eaten is
    /// what was offered less what was refused, or none when nothing says what was offered.
    private static func countWhatWasEaten(_ measurements: inout [RecordMeasurement], problems: inout [String]) {
        // Most rows count nothing: they pay for one look.
        guard measurements.contains(where: { $0.unit == .count }) else { return }
        // A count below zero, or more refused than offered, is a typo: said, not filed.
        for measurement in measurements where measurement.unit == .count && measurement.value < 0 {
            problems.append("'\(measurement.name)' is \(CSVColumns.shown(measurement.value)), and no count is below zero")
        }
        measurements.removeAll { $0.unit == .count && $0.value < 0 }
        let counts = measurements
        func count(_ name: String) -> Double? { counts.first { $0.name == name && $0.unit == .count }?.value }
        if let refused = count("refused"), let offered = count("offered"), refused > offered {
            problems.append("more refused (\(CSVColumns.shown(refused))) than offered (\(CSVColumns.shown(offered)))")
        } else if let refused = count("refused"), let eaten = count("eaten"), let offered = count("offered"),
                  refused > 0, eaten + refused != offered {
            // `Offered 5, Eaten 3, Refused yes`: which one is true is for the person to say.
            problems.append("offered \(CSVColumns.shown(offered)), eaten \(CSVColumns.shown(eaten)) and refused "
                            + "\(CSVColumns.shown(refused)) do not add up")
        }
        guard let refused = measurements.first(where: { $0.name == "refused" && $0.unit == .count }), refused.value > 0,
              !measurements.contains(where: { $0.name == "eaten" })
        else { return }
        let offered = measurements.first { $0.name == "offered" && $0.unit == .count }?.value
        measurements.append(RecordMeasurement(name: "eaten", value: max(0, (offered ?? refused.value) - refused.value), unit: .count))
    }

    /// 5 as `5`, 2.5 as `2.5`.
    static func shown(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Yes or no, as spreadsheets and apps write it.
    private static func flag(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool? {
        switch String(decoding: utf8, as: UTF8.self).lowercased() {
        case "yes", "y", "true", "x", "✓", "✔", "o", "예", "네", "ㅇ", "はい", "ja": return true
        case "no", "n", "false", "아니오", "아니요", "ㄴ", "いいえ", "nein": return false
        default: return nil
        }
    }

    /// A cell that should hold a number and does not: a problem, and the text kept on the
    /// record under its header, so nothing the row said is lost.
    private func notANumber(_ cell: UnsafeBufferPointer<UInt8>, in column: CSVColumn, values: inout CSVRowValues) {
        let text = String(decoding: cell, as: UTF8.self)
        if !CSVColumns.blanks.contains(text.lowercased()) {
            values.problems.append("column '\(column.header)': '\(text)' is not a number")
            values.fields[column.header] = text
        }
    }

    /// `8.2 oz`, `20lbs`: one number and one unit after it.
    private static func numberAndUnit(_ utf8: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> (number: Double, unit: String)? {
        let cell = String(decoding: utf8, as: UTF8.self)
        guard let match = cell.wholeMatch(of: /\s*([+-]?\d+(?:[.,]\d+)?)\s*(\S+)\s*/),
              CSVHeaderVocabulary.isUnit(String(match.2)),
              let number = CSVNumber.parse(String(match.1), decimalComma: decimalComma).flatMap(CSVColumns.rounded)
        else { return nil }
        return (number, String(match.2))
    }

    /// A trimmed, non-empty cell of the row being read, and its column.
    private struct Cell {
        let column: CSVColumn
        let text: UnsafeBufferPointer<UInt8>

        var string: String { String(decoding: text, as: UTF8.self) }
    }

    /// The date from the date column, with the time column's time if the date has none; a time
    /// column holding whole timestamps serves as the date column when there is none.
    /// When the entry ended: a whole date, or a time alone on the start's day (the next day's
    /// when it is earlier than the start: a nap from 23:10 to 01:40).
    private func endDate(_ cell: Cell, start: RecordDate?, problems: inout [String]) -> RecordDate? {
        guard let stamp = CSVTimestamp.parse(cell.text, order: order(of: cell.column)), stamp.hasDate || stamp.hasTime else {
            problems.append("column '\(cell.column.header)': '\(cell.string)' is not a date or time")
            return nil
        }
        if stamp.hasDate {
            guard let date = stamp.recordDate else {
                if stamp.yearLastPair != nil, let decided = dateOrders[cell.column.index],
                   let year = stamp.year, let month = stamp.month, let day = stamp.day, RecordDate(year: year, month: month, day: day) == nil {
                    problems.append("column '\(cell.column.header)': '\(cell.string)' is not a date in this column's order, "
                                    + decided.description)
                } else {
                    problems.append("column '\(cell.column.header)': '\(cell.string)' is not a real date")
                }
                return nil
            }
            return date
        }
        guard let start, let hour = stamp.hour, case let minute = stamp.minute ?? 0,
              var end = RecordDate(year: start.year, month: start.month, day: start.day, hour: hour, minute: minute,
                                   utcOffsetMinutes: start.utcOffsetMinutes)
        else { return nil }
        if end < start, let next = CivilDays.adding(1, to: end.dayOnly) {
            end = RecordDate(year: next.year, month: next.month, day: next.day, hour: hour, minute: minute,
                             utcOffsetMinutes: start.utcOffsetMinutes) ?? end
        }
        return end
    }

    private func date(_ dateCell: Cell?, _ timeCell: Cell?, problems: inout [String]) -> RecordDate? {
        var parsed: CSVTimestamp?
        var timeFromTimeColumn = false
        if let dateCell {
            guard let stamp = CSVTimestamp.parse(dateCell.text, order: order(of: dateCell.column)), stamp.hasDate else {
                problems.append("column '\(dateCell.column.header)': '\(dateCell.string)' is not a date")
                return nil
            }
            parsed = stamp
        }
        if let timeCell {
            if let stamp = CSVTimestamp.parse(timeCell.text, order: order(of: timeCell.column)), stamp.hasTime {
                if parsed == nil, stamp.hasDate {
                    parsed = stamp
                } else if parsed?.hasTime == false {
                    timeFromTimeColumn = true
                    parsed?.hour = stamp.hour
                    parsed?.minute = stamp.minute
                    parsed?.utcOffsetMinutes = stamp.utcOffsetMinutes
                }
            } else {
                problems.append("column '\(timeCell.column.header)': '\(timeCell.string)' is not a time")
            }
        }
        guard let parsed, let year = parsed.year, let month = parsed.month, let day = parsed.day else { return nil }
        guard let date = parsed.recordDate else {
            // 25:00 in the time column is the time column's fault, not the date's.
            let dayExists = RecordDate.plausibleYears.contains(year) && RecordDate(year: year, month: month, day: day) != nil
            let cell = timeFromTimeColumn && dayExists ? timeCell! : dateCell ?? timeCell!
            if !dayExists, parsed.yearLastPair != nil, let decided = dateOrders[cell.column.index] {
                // 01/24/2024 in a column of day-first dates: never read the other way.
                problems.append("column '\(cell.column.header)': '\(cell.string)' is not a date in this column's order, "
                                + decided.description)
                return nil
            }
            problems.append("column '\(cell.column.header)': '\(cell.string)' is not a real \(cell.column.role == .time && dayExists ? "time" : "date")")
            return nil
        }
        return date
    }

    /// A cell's number in the column's unit; units written in the cell (`45 g`, `0.6 oz`,
    /// `4lb 2.70oz`, `1 h 48 min`, `1:48`) are used instead when they measure the same thing.
    private func measurementValue(_ utf8: UnsafeBufferPointer<UInt8>, unit: MeasurementUnit, factor: Double, name: String) -> Double? {
        if let number = CSVNumber.parse(utf8, decimalComma: decimalComma) { return CSVColumns.rounded(number * factor) }
        let cell = String(decoding: utf8, as: UTF8.self)
        guard let value = CSVCellQuantity.value(of: cell, in: unit, name: name, decimalComma: decimalComma) else { return nil }
        return CSVColumns.rounded(value)
    }

    /// Conversions leave float noise (0.05 kg -> 50.00000000000001 g): 4 decimals are plenty.
    private static func rounded(_ value: Double) -> Double? {
        let rounded = (value * 10_000).rounded() / 10_000
        return rounded.isFinite && abs(value) < RecordMeasurement.largestValue ? rounded : nil
    }
}

// MARK: - CSVColumn

/// One column of a CSV file: where it is, its header as written, and what it was taken to hold.
public struct CSVColumn: Hashable, Sendable {
    /// 0-based position in the row.
    public let index: Int
    public let header: String
    public let role: CSVColumnRole
    /// The role was read from the column's values, not its header (`Datum` holding dates).
    public let foundByValues: Bool

    public init(index: Int, header: String, role: CSVColumnRole, foundByValues: Bool = false) {
        self.index = index
        self.header = header
        self.role = role
        self.foundByValues = foundByValues
    }
}

// MARK: - CSVDateOrder

/// Which of a year-last date's first two numbers is the month: `09/01/2024` is 1 September
/// month-first (as US apps write it) and 9 January day-first (as most of the world does).
public enum CSVDateOrder: Sendable, Equatable {
    case monthFirst
    case dayFirst

    /// As the reading line shows it.
    public var pattern: String {
        switch self {
        case .monthFirst: return "M/D/Y"
        case .dayFirst: return "D/M/Y"
        }
    }

    /// The order `config/records.json`'s `monthFirst` names.
    public init(monthFirst: Bool) {
        self = monthFirst ? .monthFirst : .dayFirst
    }
}
