import DossierCore

/// The table of records a subject's page and its year pages show: newest first, a row per record
/// (its id in `data-id`), with the box that filters the rows as one types.
enum RecordsTable {
    static func html(_ records: some Collection<Record>) -> String {
        var out = "<input class=\"filter\" type=\"search\" placeholder=\"Filter records\" aria-label=\"Filter records\" data-table=\"records\">\n"
        out += "<div class=\"table-wrap\"><table class=\"records\" id=\"records\"><thead><tr><th>Date</th><th>Kind</th><th>Measured</th>"
            + "<th>As written</th><th>Source</th></tr></thead><tbody>\n"
        for record in records {
            let measured = record.measurements.map { "\($0.shownValue) \($0.unit.rawValue)" }.joined(separator: ", ")
            let source = (record.source.path.split(separator: "/").last.map(String.init) ?? record.source.path) + ":\(record.source.line)"
            out += "<tr data-id=\"\(record.id.hex)\"><td>\(HTML.escape(record.date.iso8601))</td><td>\(HTML.escape(record.kind))</td>"
                + "<td>\(HTML.escape(measured))</td><td>\(LanguageTag.span(record.text))</td>"
                + "<td title=\"\(HTML.escape(record.source.path))\">\(HTML.escape(source))</td></tr>\n"
        }
        return out + "</tbody></table></div>\n"
    }
}
