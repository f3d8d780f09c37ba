import DossierCore
import Foundation

/// One table of a CSV file, as its header and first rows show it: which column is which, whose
/// records its rows are when no column says, and what kind they are. Most files hold one; an
/// export of several tables (Hatch's `=== BEGIN Feedings ===`, or a blank line and a new header)
/// holds one per section, each read by its own header.
struct CSVTable {
    var columns: CSVColumns
    /// The subject a header cell names (`Mina,Time,Amount`), for rows that name none.
    var headerSubject: Subject?
    /// The kind of rows whose kind column says none, or of every row without one.
    var kind: String?
    var kindSource: CSVReading.KindSource
    /// The kind is the file's name and nothing more (`bank.csv`: bank): no keyword knows it.
    private(set) var kindIsOnlyTheFileName = false
    /// The section's name (`Feedings`), when the file holds several.
    var name: String?
    /// Where the table's header is: what the line calls a table with no name.
    let headerLine: Int
    var reading = CSVReading()

    /// The table under `header`, judged by its first `sample` rows; the date orders are left to
    /// the caller, which reads the table's every value for them.
    /// `sourceSubject`: the subject the file's path or `--subject` names; such a file is that
    /// subject's, whatever a header cell says (`Date,Min,Max` for Leo with a pet called Max).
    init(header: CSVRow, dialect: CSVDialect, name: String?, sample: [CSVRow], fileName: String,
         resources: RecordImportResources, classifier: KeywordClassifier, requestedKind: String?, sourceSubject: Subject?) throws {
        self.name = name
        headerLine = header.line
        columns = CSVColumns(header: header, dialect: dialect)
        let cells = sample.map(\.fields)
        if !CSVImporter.hasDateColumn(columns), let index = columns.dateColumnByValues(in: cells) {
            columns = columns.withDateColumn(at: index)
        }
        columns = columns.withEndAsDate
        if let index = columns.unitColumnByValues(in: cells) {
            columns = columns.withUnitColumn(at: index)
        }
        for index in columns.signedColumns(in: cells) { columns = columns.withRoleDropped(at: index) }
        if let kindColumn = columns.column(.kind), CSVTable.namesNoKindOfCare(kindColumn, in: cells, classifier: classifier) {
            columns = columns.withRoleDropped(at: kindColumn.index)
        }
        guard CSVImporter.hasDateColumn(columns) else {
            throw CSVImportError.noDateColumn(header: header.fields)
        }
        if let index = CSVImporter.subjectColumn(in: sample, columns: columns, directory: resources.directory) {
            columns = columns.withSubjectColumn(at: index)
        } else if columns.column(.subject) == nil, sourceSubject == nil {
            let series = CSVTable.seriesColumns(columns, sample: cells, directory: resources.directory)
            if series.isEmpty {
                headerSubject = CSVImporter.subjectNamedByHeader(columns, directory: resources.directory)
            } else {
                columns = columns.withSeries(series)
            }
        }
        if let requestedKind {
            // `--kind shed` and `--kind 탈피` mean the keyword table's kind, as a kind cell would.
            let requested = classifier.classify(requestedKind).kind ?? CSVImporter.slug(requestedKind)
            (kind, kindSource) = (requested, .requested(requested))
        } else if let kindColumn = columns.column(.kind) {
            (kind, kindSource) = (nil, .column(kindColumn.header))
        } else if let name, let named = CSVImporter.kind(fromFileName: name, classifier: classifier, hasNotes: true) {
            // `=== BEGIN Feedings ===`: the section's name says what its rows are.
            (kind, kindSource) = (named, .sectionName(named))
        } else {
            // `leo.csv` names whose records they are, not what kind: the rows' notes decide then.
            let namesSubject = resources.directory.subject(named: CSVImporter.withoutCopySuffix((fileName as NSString).deletingPathExtension)) != nil
            kind = CSVImporter.kind(fromFileName: fileName, classifier: classifier,
                                    hasNotes: namesSubject || columns.column(.note) != nil)
            kindSource = kind.map { .fileName($0) } ?? .notes
            kindIsOnlyTheFileName = kind != nil && CSVImporter.knownKind(fromFileName: fileName, classifier: classifier) == nil
            if kind == nil, columns.column(.note) == nil, let (measured, header) = CSVTable.kindMeasured(columns, classifier: classifier) {
                // `date,name,weight (g)` in `leo.csv`: the rows are weights.
                (kind, kindSource) = (measured, .measurementColumn(measured, header))
            }
        }
    }

    /// Whether the table holds care records: besides its dates, a column Dossier reads (a kind,
    /// a note, a measurement, a subject's series), or a kind it knows from the rows' notes, a
    /// section's or the file's name, or `--kind`; or one or two columns of their own (`date,
    /// temperature (C)`, `date,dose`: a log someone keeps of one thing, its kind the file's
    /// name). A table of dates beside three or more columns of other things (a bank statement,
    /// a GPS track), whose kind would be no more than its file's name, is none; nor is one whose
    /// only columns Dossier reads are measurements, outnumbered by three or more it does not (a
    /// drone's flight record: heights in feet among speeds, batteries and satellites). Returns
    /// why it holds none, for the file's one problem; nil when it holds some.
    var whyNoCareRecords: String? {
        let read = columns.columns.filter { column in
            switch column.role {
            case .kind, .subKind, .note, .measurement, .unitlessMeasurement, .series: true
            case .date, .time, .endDate, .subject, .unit, .text: false
            }
        }
        let others = columns.columns.filter { $0.role == .text }.map { "'\($0.header)'" }
        guard kindIsOnlyTheFileName, others.count >= CSVTable.columnsOfOtherThings else { return nil }
        let listed = others.prefix(6).joined(separator: ", ") + (others.count > 6 ? ", ..." : "")
        if read.isEmpty { return "no kind, note or measurement column (beside its dates: \(listed))" }
        let measuresOnly = read.allSatisfy { column in
            switch column.role {
            case .measurement, .unitlessMeasurement: true
            default: false
            }
        }
        guard measuresOnly, others.count > read.count else { return nil }
        return "no kind or note column, and its \(read.count) measurement \(read.count == 1 ? "column is" : "columns are") "
            + "outnumbered by \(others.count) it does not read (\(listed))"
    }

    /// Whether a column headed like a kind (`Type`) names no kind of care in any of the first
    /// rows: a bank statement's `CARD_PAYMENT`, `TRANSFER`, `TOPUP` are no feedings. Kept as text
    /// then (the reading line says so); one value the keyword table knows is enough to keep it
    /// a kind column, its other values kinds of their own.
    static func namesNoKindOfCare(_ column: CSVColumn, in rows: [[String]], classifier: KeywordClassifier) -> Bool {
        let values = Set(rows.compactMap { row in column.index < row.count ? row[column.index].trimmedWhitespace : nil }
            .filter { !$0.isEmpty })
        return values.count >= 2 && values.allSatisfy { classifier.classify($0).kind == nil }
    }

    /// How many columns Dossier does not read make a table of dates something other than care records.
    static let columnsOfOtherThings = 3

    /// The one kind every measurement column's name says (`weight (g)`: weight), and the first
    /// such column; nil when they say none or several.
    static func kindMeasured(_ columns: CSVColumns, classifier: KeywordClassifier) -> (String, String)? {
        var found: (kind: String, header: String)?
        for column in columns.columns {
            let name: String
            switch column.role {
            case .measurement(let measured, _, _), .unitlessMeasurement(let measured, _): name = measured
            default: continue
            }
            guard let kind = classifier.classify(name).kind, found == nil || found?.kind == kind else { return nil }
            if found == nil { found = (kind, column.header) }
        }
        return found
    }

    /// Whether the rows' kind is the table's guess (from a file or section name, or the
    /// measurement columns), which a row's note saying it totals the day overrides.
    var kindIsTablesGuess: Bool {
        switch kindSource {
        case .fileName, .sectionName, .measurementColumn: return true
        case .column, .requested, .notes: return false
        }
    }

    /// Whether the table has one column per subject (`CSVColumnRole.series`).
    var isWide: Bool {
        columns.columns.contains { if case .series = $0.role { true } else { false } }
    }

    /// A wide sheet's columns (`Datum,Leo,Rex`): those headed by a subject's name or alias (a
    /// unit after it allowed: `Leo (g)`) whose values are numbers, four in five of them; and
    /// beside them, one so headed that is empty in the first rows (an animal weighed later).
    static func seriesColumns(_ columns: CSVColumns, sample: [[String]], directory: SubjectDirectory) -> [Int: SeriesColumn] {
        var series: [Int: SeriesColumn] = [:]
        var emptySoFar: [Int: SeriesColumn] = [:]
        for column in columns.columns {
            switch column.role {
            case .text, .measurement, .unitlessMeasurement: break
            default: continue
            }
            let name = CSVHeaderVocabulary.split(header: column.header).name
            var found = (directory.subject(named: name) ?? directory.subject(named: column.header.trimmedWhitespace))
                .map { SeriesColumn(subject: $0, unit: nil, factor: 1) }
            // `Leo kg`: the name, then its unit without a bracket (a weight's, as wide sheets are).
            if found == nil, let space = name.lastIndex(where: { $0 == " " || $0 == "_" }),
               let subject = directory.subject(named: String(name[..<space]).trimmedWhitespace),
               let (dimension, factor) = CSVHeaderVocabulary.unit(String(name[name.index(after: space)...]), forName: "weight") {
                found = SeriesColumn(subject: subject, unit: dimension.unit, factor: factor)
            }
            guard let found else { continue }
            var values = 0, numbers = 0
            for row in sample where column.index < row.count {
                let cell = row[column.index].trimmedWhitespace
                guard !cell.isEmpty else { continue }
                values += 1
                if CSVNumber.parse(cell, decimalComma: columns.decimalComma) != nil
                    || CSVCellQuantity.value(of: cell, in: .grams, name: "", decimalComma: columns.decimalComma) != nil {
                    numbers += 1
                }
            }
            if values == 0 { emptySoFar[column.index] = found }
            if values > 0, numbers * 5 >= values * 4 { series[column.index] = found }
        }
        return series.isEmpty ? series : series.merging(emptySoFar) { first, _ in first }
    }
}

// MARK: - CSVTableScan

/// Decides, for each date or time column of a CSV table, the order its year-last dates are read
/// in, from every value of the column; and checks each role found by the first rows' values (a
/// `Datum` of dates, a column of names) against every value. The table is read once more, ahead
/// of the rows being filed, when its first rows show dates whose order is a question or a role
/// was found by values (ISO dates under a `Date` header need no pass).
///
/// One reader goes through the file ahead of the import, only ever forward: a file of many
/// tables (sections) is read twice in all, not once more for each table.
final class CSVTableScan {
    private let source: SourceFile
    private let dialect: CSVDialect
    // One thread at a time, on every record's way: no run-time exclusivity checks (docs/performance.md).
    @exclusivity(unchecked) private var reader: CSVReader?
    /// A row the reader gave that belongs to a later table than the one asked about.
    @exclusivity(unchecked) private var heldRow: CSVRow?

    init(source: SourceFile, dialect: CSVDialect) {
        self.source = source
        self.dialect = dialect
    }

    /// What reading a whole table found: each date column's order, and the columns whose role
    /// was found by the first rows' values but that fewer than four in five of all their values
    /// bear out (by index: how many of how many did).
    struct Findings {
        var orders: [Int: CSVDateOrderDecision] = [:]
        var rolesNotBorneOut: [Int: (matching: Int, values: Int)] = [:]
    }

    /// The findings for the table under the header on `headerLine` (its rows up to the next
    /// table's header); nothing to find when its first rows hold no year-last date and no role
    /// was found by values.
    func decide(columns: CSVColumns, firstRows: [CSVRow], monthFirst: Bool, headerLine: Int) throws -> Findings {
        let dateColumns = columns.dateColumns
        // A unit column or a subject's column that the whole table does not bear out would change
        // every row's numbers without a word. A date or subject column found by values stays:
        // each of its cells that is no date or no name is that row's own problem, and seen.
        let byValues = columns.columns.filter { column in
            guard column.foundByValues else { return false }
            if case .series = column.role { return true }
            return column.role == .unit
        }
        let yearLast = !dateColumns.isEmpty && firstRows.contains { row in
            dateColumns.contains { CSVTableScan.yearLastPair(in: row, column: $0.index) != nil }
        }
        guard yearLast || !byValues.isEmpty else { return Findings() }
        var tallies = Array(repeating: (matching: 0, values: 0), count: byValues.count)
        var scans = Array(repeating: CSVDateOrderScan(), count: dateColumns.count)
        if reader == nil { reader = try CSVReader(source: source, dialect: dialect) }
        var breaks = CSVSectionBreaks(headerLine: headerLine)
        while let row = try heldRow ?? reader!.next() {
            heldRow = nil
            guard row.line > headerLine else { continue }
            var dated = false
            for (position, column) in dateColumns.enumerated() where yearLast {
                guard let pair = CSVTableScan.yearLastPair(in: row, column: column.index) else { continue }
                dated = true
                scans[position].add(pair) { row.field(column.index).trimmedWhitespace }
            }
            for (position, column) in byValues.enumerated() where column.index < row.count {
                let cell = row.field(column.index).trimmedWhitespace
                guard !cell.isEmpty else { continue }
                tallies[position].values += 1
                if CSVTableScan.bearsOut(column.role, cell) { tallies[position].matching += 1 }
            }
            // The next table's rows are its own: kept for when it is asked about.
            if breaks.start(of: row, dated: dated) == .header {
                heldRow = row
                break
            }
        }
        var findings = Findings()
        for (position, column) in dateColumns.enumerated() where yearLast {
            findings.orders[column.index] = scans[position].decision(monthFirst: monthFirst)
        }
        for (position, column) in byValues.enumerated() where tallies[position].matching * 5 < tallies[position].values * 4 {
            findings.rolesNotBorneOut[column.index] = tallies[position]
        }
        return findings
    }

    /// Whether a cell is what its column was taken to hold.
    private static func bearsOut(_ role: CSVColumnRole, _ cell: String) -> Bool {
        switch role {
        case .unit: return CSVHeaderVocabulary.key(cell).count > 1 && CSVHeaderVocabulary.isUnit(cell)
        case .series: return CSVNumber.parse(cell, decimalComma: false) != nil || CSVNumber.parse(cell, decimalComma: true) != nil
            || CSVHeaderVocabulary.isUnit(cell.filter { !$0.isNumber && $0 != "." && $0 != "," && $0 != " " })
        default: return true
        }
    }

    /// The cell's first two numbers when it is a date written with the year last.
    static func yearLastPair(in row: CSVRow, column: Int) -> CSVTimestamp.YearLastPair? {
        guard column < row.count else { return nil }
        return row.bytes.withUnsafeBufferPointer { bytes in
            let cell = UnsafeBufferPointer(rebasing: bytes[row.range(of: column)]).trimmedWhitespace
            guard !cell.isEmpty else { return nil }
            return CSVTimestamp.parse(cell)?.yearLastPair
        }
    }
}

// MARK: - SampleRows

/// The header of a sample and the rows under it: the first row with two or more fields (a title
/// line above it skipped), then each later line that is a whole row.
struct SampleRows {
    let lines: [String]

    mutating func header() -> [String]? {
        headerAndRows()?.header
    }

    /// The header and the sample's rows below it (a row whose quoted field goes on past its line
    /// is left out: the sample only shows what its columns hold).
    func headerAndRows() -> (header: [String], rows: [[String]])? {
        let textLines = lines.enumerated().map { TextLine(number: $0.offset + 1, text: $0.element, terminator: "\n") }
        let dialect = CSVDialectSniffer.sniff(textLines)
        var parser = CSVRowParser(dialect: dialect)
        func row(_ line: TextLine) -> [String]? {
            parser.reset()
            guard (try? parser.feed(line.text)) == true else { return nil }
            return parser.takeFields()
        }
        for (position, line) in textLines.prefix(3).enumerated() {
            guard let header = row(line), header.count >= 2 else { continue }
            return (header, textLines.dropFirst(position + 1).compactMap(row))
        }
        return nil
    }
}

// MARK: - CSVHeaderVocabulary

/// The words tracking apps and spreadsheets use in CSV headers, in English and Korean (and a few
/// German and Japanese measurement names), and the units they put in them. Headers are compared as `key(_:)` makes them, so "Time Stamp",
/// "time_stamp" and "TIMESTAMP" are one word.
enum CSVHeaderVocabulary {
    enum Dimension: Hashable, Sendable {
        case mass, length, volume, duration, count

        var unit: MeasurementUnit {
            switch self {
            case .mass: return .grams
            case .length: return .centimetres
            case .volume: return .millilitres
            case .duration: return .minutes
            case .count: return .count
            }
        }

        /// What a column headed by a unit alone (`grams`, `kg`, `oz`) measures.
        var measurementName: String {
            switch self {
            case .mass: return "weight"
            case .length: return "length"
            case .volume: return "amount"
            case .duration: return "duration"
            case .count: return "count"
            }
        }
    }

    static let dateWords: Set<String> = ["date", "day", "날짜", "일자", "일시", "timestamp", "datetime", "start", "starttime",
                                         "startdate", "dateandtime", "datetimestamp", "when", "logged", "loggedat",
                                         "recorded", "recordedat", "createdat", "기록일", "기록일시", "날짜시간",
                                         // German, Dutch and Scandinavian sheets; Spanish; Japanese and Chinese.
                                         "datum", "fecha", "日付", "日期"]
    /// When an entry ended: a shed completed, a feeding or a nap over.
    static let endWords: Set<String> = ["end", "endtime", "enddate", "ended", "endedat", "finish", "finished", "finishedat",
                                        "completed", "completedat", "stop", "stoptime", "stopped", "until", "to",
                                        "종료", "종료시간", "종료일", "끝", "終了", "終了時刻"]
    static let timeWords: Set<String> = ["time", "시간", "시각", "timeofday"]
    static let subjectWords: Set<String> = ["name", "subject", "pet", "animal", "child", "baby", "이름", "개체", "아이",
                                            "petname", "childname", "babyname", "animalname"]
    static let kindWords: Set<String> = ["kind", "type", "category", "event", "activity", "종류", "구분", "분류",
                                         "eventtype", "activitytype", "recordcategory", "recordtype", "entrytype",
                                         "種類", "カテゴリ", "カテゴリー", "項目"]
    /// What a kind column's entry is more precisely (`Bottle`, `Left Breast`), kept on the record.
    static let subKindWords: Set<String> = ["method", "subtype", "subcategory", "subkind", "feedingtype", "feedtype",
                                            "detail", "세부", "세부종류", "세부항목", "방법", "詳細", "方法"]
    /// Counts of a meal, by the name records keep them under: what was offered, eaten, refused.
    /// A cell may also say yes or no (`Refused: yes`, `Ate: 0`).
    static let mealCounts: [String: String] = [
        "offered": "offered", "given": "offered", "presented": "offered", "급여수": "offered", "급여개수": "offered",
        "준개수": "offered", "angeboten": "offered", "gefressen": "eaten", "verweigert": "refused", "eaten": "eaten", "ate": "eaten", "consumed": "eaten", "먹은수": "eaten", "먹은개수": "eaten",
        "refused": "refused", "rejected": "refused", "noteaten": "refused",
        "거부": "refused", "거식": "refused", "안먹음": "refused", "남김": "refused", "食べ残し": "refused",
    ]
    /// A number that measures what its row's kind does (`Quantity` 20 beside `lbs`).
    static let quantityWords: Set<String> = ["quantity", "qty", "value", "수치", "값", "数量", "値"]
    /// The unit of the row's quantity.
    static let unitWords: Set<String> = ["unit", "units", "uom", "unitofmeasure", "단위", "単位"]
    static let noteWords: Set<String> = ["note", "notes", "memo", "memos", "comment", "comments", "메모", "비고", "내용"]

    /// Measurement names that need no unit in the header, and the dimension they measure.
    static let measurementNames: [String: Dimension] = [
        "weight": .mass, "무게": .mass, "체중": .mass, "mass": .mass, "gewicht": .mass, "体重": .mass,
        "height": .length, "키": .length, "length": .length, "길이": .length, "신장": .length, "länge": .length, "身長": .length,
        "amount": .volume, "volume": .volume, "양": .volume,
        "duration": .duration, "minutes": .duration, "mins": .duration, "분": .duration, "시간분": .duration,
        "sleep": .duration, "수면": .duration,
        "count": .count, "수량": .count, "마리": .count, "개": .count, "개수": .count,
    ]

    /// Units by `key(_:)` of how they are written, with every dimension they may mean.
    /// An ounce is fluid (ml) unless the column weighs something; an "m" is minutes on a duration.
    private static let units: [String: [(Dimension, Double)]] = {
        var table: [String: [(Dimension, Double)]] = [:]
        func add(_ words: [String], _ dimension: Dimension, _ factor: Double) {
            for word in words { table[word, default: []].append((dimension, factor)) }
        }
        add(["g", "gr", "gram", "grams", "gramme", "grammes", "그램", "그람"], .mass, 1)
        add(["kg", "kgs", "kilo", "kilos", "kilogram", "kilograms", "킬로", "킬로그램"], .mass, 1000)
        add(["mg", "milligram", "milligrams"], .mass, 0.001)
        add(["lb", "lbs", "pound", "pounds", "파운드"], .mass, 453.59237)
        add(["floz", "fluidounce", "fluidounces"], .volume, 29.5735)
        add(["oz", "ounce", "ounces", "온스"], .volume, 29.5735)
        add(["oz", "ounce", "ounces", "온스"], .mass, 28.349523125)
        add(["cm", "centimetre", "centimetres", "centimeter", "centimeters", "센치", "센티", "센티미터"], .length, 1)
        add(["mm", "millimetre", "millimetres", "millimeter", "millimeters", "밀리미터"], .length, 0.1)
        add(["m", "metre", "metres", "meter", "meters", "미터"], .length, 100)
        add(["in", "inch", "inches", "인치"], .length, 2.54)
        add(["ft", "foot", "feet"], .length, 30.48)
        add(["ml", "millilitre", "millilitres", "milliliter", "milliliters", "cc", "미리", "밀리", "밀리리터"], .volume, 1)
        add(["l", "litre", "litres", "liter", "liters", "리터"], .volume, 1000)
        add(["min", "mins", "minute", "minutes", "분", "m", "分"], .duration, 1)
        add(["h", "hr", "hrs", "hour", "hours", "시간", "時間"], .duration, 60)
        add(["s", "sec", "secs", "second", "seconds", "초", "秒"], .duration, 1.0 / 60)
        add(["ms", "msec", "millisecond", "milliseconds"], .duration, 1.0 / 60_000)
        add(["count", "마리", "개", "회", "번", "pcs", "pc", "ea", "x", "times", "number"], .count, 1)
        return table
    }()

    /// Lowercased letters and digits only: case, spaces and punctuation do not tell headers apart.
    static func key(_ text: String) -> String {
        String(String.UnicodeScalarView(text.lowercased().unicodeScalars.filter {
            $0.properties.isAlphabetic || $0.properties.numericType != nil
        }))
    }

    /// The dimension and factor a unit means in a column named `name` (a `key`), if it is a unit.
    static func unit(_ written: String, forName name: String) -> (Dimension, Double)? {
        guard let meanings = units[key(written)] else { return nil }
        if let wanted = measurementNames[name], let meaning = meanings.first(where: { $0.0 == wanted }) { return meaning }
        return meanings[0]
    }

    static func isUnit(_ written: String) -> Bool { units[key(written)] != nil }

    /// Unit words that head columns of other things as often: `Min` and `Max` temperatures, `In`
    /// and `Out`, `Number`, `Times`.
    static let unitOnlySometimes: Set<String> = ["min", "in", "hr", "number", "times", "ea", "pc", "pcs"]

    /// What one `written` unit is in `unit` (the one records keep for its dimension): `kg` in g
    /// is 1000, `oz` in ml is 29.5735 and in g 28.35; nil when it measures something else.
    static func factor(of written: String, in unit: MeasurementUnit) -> Double? {
        units[key(written)]?.first { $0.0.unit == unit }?.1
    }

    /// The units `written` may be, as the unit records keep for each dimension it may measure.
    static func meanings(of written: String) -> [(unit: MeasurementUnit, factor: Double)] {
        (units[key(written)] ?? []).map { ($0.0.unit, $0.1) }
    }

    /// A header split into its name and what is written in a trailing bracket (`Amount (oz.)`,
    /// `무게(g)`, `Weight [kg]`, `Date (local)`), or after it when that is a unit (`weight_kg`).
    static func split(header: String) -> (name: String, bracket: String?) {
        let trimmed = header.trimmedWhitespace
        for (open, close) in [("(", ")"), ("[", "]"), ("（", "）"), ("{", "}")] where trimmed.hasSuffix(close) {
            guard let start = trimmed.range(of: open, options: .backwards) else { continue }
            let inside = String(trimmed[start.upperBound..<trimmed.index(before: trimmed.endIndex)])
            let name = String(trimmed[..<start.lowerBound]).trimmedWhitespace
            return (name, inside.trimmedWhitespace)
        }
        // `Mass in g`, `Length in m`: a unit after "in", after a known measurement name.
        if let range = trimmed.range(of: " in ", options: [.backwards, .caseInsensitive]) {
            let name = String(trimmed[..<range.lowerBound]).trimmedWhitespace
            let unit = String(trimmed[range.upperBound...]).trimmedWhitespace
            if measurementNames[key(name)] != nil, isUnit(unit) { return (name, unit) }
        }
        // `weight_kg`, `Duration min`: only after a known measurement name, so "Pet No" stays text.
        if let separator = trimmed.lastIndex(where: { $0 == " " || $0 == "_" || $0 == "-" }) {
            let name = String(trimmed[..<separator]).trimmedWhitespace
            let unit = String(trimmed[trimmed.index(after: separator)...])
            if measurementNames[key(name)] != nil, isUnit(unit) { return (name, unit) }
        }
        return (trimmed, nil)
    }
}
