import DossierCore

/// `quarantine.html`: the sources the daemon could not file, and the inbox files it could not
/// even quarantine, with the reason and what to do.
enum QuarantinePage {
    static let path = "quarantine.html"

    static func render(_ entries: [QuarantineEntry], stuck: [StuckSource]) -> String {
        var body = "<h2>Quarantine (\(entries.count))</h2>\n"
        if entries.isEmpty {
            body += "<p>Nothing in quarantine.</p>\n"
        } else {
            body += "<p>Files <code>dossier watch</code> took from its inbox but could not file; each waits under "
                + "<code>quarantine/</code> with a note. Fix the cause (add the subject with <code>dossier subjects add</code>, "
                + "or an alias), then <code>dossier quarantine retry ID</code> (or <code>--all</code>); "
                + "<code>dossier quarantine remove ID</code> deletes one you do not want.</p>\n"
            body += "<div class=\"table-wrap\"><table class=\"quarantine\"><thead><tr><th>Id</th><th>From</th><th>When</th>"
                + "<th>Stage</th><th>Reason</th></tr></thead><tbody>\n"
            for entry in entries {
                body += "<tr data-id=\"\(HTML.escape(entry.id))\"><td>\(HTML.escape(SourcePath.displayed(entry.id)))</td>"
                    + "<td>\(HTML.escape(SourcePath.displayed(entry.originalPath)))</td><td>\(HTML.escape(entry.quarantinedAt))</td>"
                    + "<td>\(HTML.escape(entry.stage.rawValue))</td><td class=\"problem-reason\">\(LanguageTag.span(SourcePath.displayed(entry.reason)))</td></tr>\n"
            }
            body += "</tbody></table></div>\n"
        }
        if !stuck.isEmpty {
            body += "<h2>Stuck in the inbox (\(stuck.count))</h2>\n<p>Files that could be neither filed nor quarantined. "
                + "Fix the cause (a permission, a link); the daemon takes each when it changes, or on SIGHUP.</p>\n"
                + "<div class=\"table-wrap\"><table class=\"stuck\"><thead><tr><th>File</th><th>Since</th><th>Reason</th></tr></thead><tbody>\n"
            for source in stuck {
                body += "<tr><td>\(HTML.escape(SourcePath.displayed(source.path)))</td><td>\(HTML.escape(source.since))</td>"
                    + "<td class=\"problem-reason\">\(HTML.escape(SourcePath.displayed(source.reason)))</td></tr>\n"
            }
            body += "</tbody></table></div>\n"
        }
        return PageShell.page(title: "Quarantine", depth: 0, body: body)
    }
}
