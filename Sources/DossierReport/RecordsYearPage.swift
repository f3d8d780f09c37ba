import DossierCore

/// `<kind>/<id>/records-<YYYY>.html`: every record of one year of a subject whose records are too
/// many for its own page to list (`SubjectPage.recordsListed`), newest first.
struct RecordsYearPage {
    let data: SubjectData
    let year: Int
    /// The year's records, oldest first, as the year file holds them.
    let records: [Record]

    static func path(of subject: Subject, year: Int) -> String { "\(subject.path)/\(fileName(year: year))" }

    static func fileName(year: Int) -> String { "records-\(String(format: "%04d", year)).html" }

    /// Whether a path the site's state names is one of the subject's year pages: the state is a
    /// file in the site's folder, and a path edited into it must never have the report read or
    /// remove anything else.
    static func isPath(_ path: String, of subject: Subject) -> Bool {
        guard path.hasPrefix("\(subject.path)/records-"), path.hasSuffix(".html") else { return false }
        let year = path.dropFirst(subject.path.count + "/records-".count).dropLast(".html".count)
        guard let number = Int(year), number >= 0 else { return false }
        return path == RecordsYearPage.path(of: subject, year: number)
    }

    func render() -> String {
        var body = "<p class=\"muted\">\(HTML.escape(data.subject.path)) · <a href=\"index.html\">\(LanguageTag.span(data.name))'s page</a></p>\n"
        body += "<section><h2>Records of \(year) (\(records.count))</h2>\n"
        body += RecordsTable.html(records.reversed())
        body += "</section>\n"
        return PageShell.page(title: "\(data.name): \(year)", depth: 2, body: body)
    }
}
