import DossierCore

/// `<kind>/<id>/records-<YYYY>.html`: every record of one year of a subject whose records are too
/// many for its own page to list (`SubjectPage.recordsListed`), newest first.
struct RecordsYearPage {
    let data: SubjectData
    let year: Int
    /// The year's records, oldest first.
    let records: [Record]

    static func path(of subject: Subject, year: Int) -> String { "\(subject.path)/\(fileName(year: year))" }

    static func fileName(year: Int) -> String { "records-\(shown(year)).html" }

    /// A year as its year file names it: four digits (`0001`).
    static func shown(_ year: Int) -> String { String(format: "%04d", year) }

    /// Whether a path the site's state names is one of the subject's year pages: the state is a
    /// file in the site's folder, and a path edited into it must never have the report read or
    /// remove anything else (`records-12345.html` is no year page: a year file's year has four
    /// digits, 0001 to 9999).
    static func isPath(_ path: String, of subject: Subject) -> Bool {
        guard path.hasPrefix("\(subject.path)/records-"), path.hasSuffix(".html") else { return false }
        let year = path.utf8.dropFirst(subject.path.utf8.count + "/records-".utf8.count).dropLast(".html".utf8.count)
        guard year.count == 4, year.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(String(decoding: year, as: UTF8.self)),
              number >= 1 else { return false }
        return path == RecordsYearPage.path(of: subject, year: number)
    }

    func render() -> String {
        var body = "<p class=\"muted\">\(HTML.escape(data.subject.path)) · <a href=\"index.html\">\(LanguageTag.span(data.name))'s page</a></p>\n"
        body += "<section><h2>Records of \(RecordsYearPage.shown(year)) (\(records.count))</h2>\n"
        body += RecordsTable.html(records.reversed())
        body += "</section>\n"
        // The name last: a right-to-left override in it (isolated in the heading, not in the
        // window's title) then turns nothing after it around.
        return PageShell.page(title: "Records of \(RecordsYearPage.shown(year)) · \(data.name)", depth: 2, body: body)
    }
}
