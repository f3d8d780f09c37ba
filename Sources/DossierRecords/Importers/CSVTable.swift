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
