import DossierCore

/// `problems.html`: every line or entry that was not filed, with its source, line and reason,
/// and what to do about it.
enum ProblemsPage {
    static let path = "problems.html"

    static func render(_ problems: [LedgerProblem]) -> String {
        var body = "<h2>Problems (\(problems.count))</h2>\n"
        guard !problems.isEmpty else {
            return PageShell.page(title: "Problems", depth: 0, body: body + "<p>None: every line of every source was filed.</p>")
        }
        body += "<p>Each is a line of a log or a row of a CSV that was not filed, and why. Fix the cause (give the name as an "
            + "alias with <code>dossier subjects edit KIND/ID --add-alias NAME</code>, name a unit in "
            + "<code>config/records.json</code>), then run <code>dossier problems retry</code>; or drop one with "
            + "<code>dossier problems dismiss ID</code>. The library keeps each source whole under <code>sources/</code>.</p>\n"
        body += "<input class=\"filter\" type=\"search\" placeholder=\"Filter problems\" aria-label=\"Filter problems\" data-table=\"problems\">\n"
        body += table(problems)
        return PageShell.page(title: "Problems", depth: 0, body: body)
    }

    /// The problems as a table, one `<tr data-id>` each (the id `dossier problems dismiss` takes).
    static func table(_ problems: [LedgerProblem]) -> String {
        var out = "<div class=\"table-wrap\"><table class=\"problems\" id=\"problems\"><thead><tr><th>#</th><th>Source</th>"
            + "<th>Line as written</th><th>Reason</th></tr></thead><tbody>\n"
        for problem in problems {
            let source = SourcePath.displayed(problem.sourcePath) + (problem.line.map { ":\($0)" } ?? "")
            out += "<tr data-id=\"\(problem.id ?? 0)\"><td>\(problem.id ?? 0)</td><td>\(HTML.escape(source))"
                + (problem.keptPath.map { "<br><span class=\"muted\">kept as \(HTML.escape($0))</span>" } ?? "") + "</td>"
                + "<td>\(LanguageTag.span(problem.text ?? ""))</td><td class=\"problem-reason\">\(LanguageTag.span(problem.reason))</td></tr>\n"
        }
        return out + "</tbody></table></div>\n"
    }
}
