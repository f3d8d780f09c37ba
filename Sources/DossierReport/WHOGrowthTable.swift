import Foundation

/// One of WHO's z-score tables read from its text: a row a month with L, M, S and the SD columns
/// WHO printed beside them.
public struct WHOGrowthTable: Sendable {
    public struct Row: Sendable, Equatable {
        public let month: Int
        public let l: Double
        public let m: Double
        public let s: Double
        /// WHO's printed values by column name (`SD2neg`, `SD0`, `SD2`...), rounded as printed.
        public let printed: [String: Double]
    }

    /// WHO's file name, as the table's `#` header names it.
    public let fileName: String
    public let rows: [Row]

    /// Reads the table's text: `#` lines (its source), a header line, then one row a line.
    /// The text ships with the program, so a malformed line is a programming error.
    public init(text: String) {
        var fileName = ""
        var header: [String] = []
        var rows: [Row] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#") {
                if let range = line.range(of: "WHO's file: ") {
                    fileName = String(line[range.upperBound...].prefix { $0 != ";" })
                }
                continue
            }
            let cells = line.split(separator: "\t").map { $0.trimmingCharacters(in: .whitespaces) }
            if header.isEmpty {
                header = cells
                continue
            }
            var values: [String: Double] = [:]
            for (name, cell) in zip(header, cells) { values[name] = Double(cell) }
            guard let month = values["Month"], let l = values["L"], let m = values["M"], let s = values["S"] else {
                preconditionFailure("WHO table \(fileName): a row without Month, L, M and S: \(line)")
            }
            rows.append(Row(month: Int(month), l: l, m: m, s: s, printed: values))
        }
        self.fileName = fileName
        self.rows = rows
    }

    /// The LMS method's value at `z`: M (1 + L S z)^(1/L), or M e^(S z) when L is 0.
    public static func value(l: Double, m: Double, s: Double, z: Double) -> Double {
        l == 0 ? m * exp(s * z) : m * pow(1 + l * s * z, 1 / l)
    }
}
