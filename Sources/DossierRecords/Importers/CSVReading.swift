import DossierCore

/// How one CSV file was read, in the one line the import shows for it, so a person sees a
/// misreading at a glance: `feeds.csv: 4,100 rows -> 4,100 records, 0 problems; dates D/M/Y in
/// 'Date' (from 24/01/2024); kind from 'Type'; 'Amount (oz.)' -> ml (x29.5735)`.
struct CSVReading {
    var rows = 0
    var records = 0
    /// Rows not filed, each with at least one problem.
    var rowsWithProblems = 0

    /// Where the records' kind came from, as the line says it.
    enum KindSource {
        case column(String)
        case fileName(String)
        case requested(String)
        case notes
    }

    func line(columns: CSVColumns, kind: KindSource) -> String {
        var parts = ["\(CSVReading.counted(rows, "row")) -> \(CSVReading.counted(records, "record")), "
                     + "\(CSVReading.counted(rowsWithProblems, "problem"))"]
        for column in columns.dateColumns {
            let byValues = column.foundByValues ? " (by its values)" : ""
            if let decision = columns.dateOrders[column.index] {
                parts.append("dates \(decision.order.pattern) in '\(column.header)'\(byValues) (\(decision.reason))")
            } else {
                parts.append("\(column.role == .time ? "times" : "dates") in '\(column.header)'\(byValues)")
            }
        }
        switch kind {
        case .column(let header): parts.append("kind from '\(header)'")
        case .fileName(let kind): parts.append("kind '\(kind)' from the file's name")
        case .requested(let kind): parts.append("kind '\(kind)' as asked")
        case .notes: parts.append("kind from each row's note")
        }
        for column in columns.columns {
            guard case .measurement(_, let unit, let factor) = column.role else { continue }
            parts.append("'\(column.header)' -> \(unit.rawValue)" + (factor == 1 ? "" : " (x\(CSVReading.factor(factor)))"))
        }
        return parts.joined(separator: "; ")
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(grouped(count)) \(noun)\(count == 1 ? "" : "s")"
    }

    /// 4100 as `4,100`, whatever the machine's locale.
    static func grouped(_ count: Int) -> String {
        var digits = Array(String(count))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }

    private static func factor(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String((value * 1_000_000).rounded() / 1_000_000)
    }
}
