import DossierCore
import DossierRecords

/// `index.html`: today's greetings, then every subject as a card, grouped and filterable by class.
struct IndexPage {
    let summaries: [SubjectSummary]
    let greetings: [(summary: SubjectSummary, anniversary: Anniversary)]
    let today: RecordDate
    /// The library's root as seen from the site's root (`..`).
    let libraryPrefix: String
    let problemCount: Int
    let quarantineCount: Int

    static let path = "index.html"

    /// The groups in the order the old apps' pickers showed them.
    static let groups: [(key: String, title: String)] = [
        ("children", "Children"), ("reptile", "Reptiles"), ("amphibian", "Amphibians"), ("arthropod", "Arthropods"),
        ("mammal", "Mammals"), ("bird", "Birds"), ("fish", "Fish"), ("other", "Other pets"),
    ]

    func render() -> String {
        var body = ""
        if !greetings.isEmpty {
            body += "<section class=\"greetings\"><h2>Today, \(today.iso8601)</h2><ul>\n"
            for (summary, anniversary) in greetings {
                body += "<li><a href=\"\(HTML.url(summary.subject))/index.html\">\(LanguageTag.span(summary.name))</a>: "
                    + "\(HTML.escape(GreetingText.of(anniversary)))</li>\n"
            }
            body += "</ul></section>\n"
        }
        if problemCount > 0 || quarantineCount > 0 {
            body += "<p>"
            if problemCount > 0 { body += "<a href=\"\(ProblemsPage.path)\">\(problemCount) \(problemCount == 1 ? "problem" : "problems")</a> to look at. " }
            if quarantineCount > 0 { body += "<a href=\"\(QuarantinePage.path)\">\(quarantineCount) in quarantine</a>." }
            body += "</p>\n"
        }
        let present = IndexPage.groups.filter { group in summaries.contains { $0.group == group.key } }
        let known = Set(IndexPage.groups.map(\.key))
        let others = Set(summaries.map(\.group)).subtracting(known).sorted()
        let shown = present.map { ($0.key, $0.title) } + others.map { ($0, $0.capitalized) }
        guard !summaries.isEmpty else {
            return PageShell.page(title: "Dossier", depth: 0, body: body + "<p>No subjects yet: <code>dossier subjects add</code> or <code>dossier import</code>.</p>")
        }
        body += "<div class=\"class-filter\" role=\"group\" aria-label=\"Show\">"
        body += "<button type=\"button\" data-filter=\"all\" aria-pressed=\"true\">All (\(summaries.count))</button>"
        for (key, title) in shown {
            body += "<button type=\"button\" data-filter=\"\(HTML.escape(key))\" aria-pressed=\"false\">"
                + "\(HTML.escape(title)) (\(summaries.filter { $0.group == key }.count))</button>"
        }
        body += "</div>\n"
        for (key, title) in shown {
            body += "<section class=\"group\" data-class=\"\(HTML.escape(key))\"><h2>\(HTML.escape(title))</h2><div class=\"cards\">\n"
            for summary in summaries where summary.group == key { body += card(summary) }
            body += "</div></section>\n"
        }
        return PageShell.page(title: "Dossier", depth: 0, body: body)
    }

    private func card(_ summary: SubjectSummary) -> String {
        let page = "\(HTML.url(summary.subject))/index.html"
        var out = "<article class=\"card\" data-class=\"\(HTML.escape(summary.group))\" data-subject=\"\(HTML.escape(summary.subject))\">"
        out += "<a class=\"cover\" href=\"\(page)\">"
        if let photo = summary.latestPhoto {
            out += "<img src=\"\(HTML.url(libraryPrefix + photo))\" loading=\"lazy\" alt=\"\(HTML.escape(summary.name))\">"
        }
        out += "</a><div class=\"body\"><h3><a href=\"\(page)\">\(LanguageTag.span(summary.name))</a></h3>"
        let today = CalendarDay(self.today)
        var facts: [(String, String)] = []
        if summary.group == "children" {
            if let born = summary.born.flatMap(RecordDate.init(iso8601:)), let age = AgeText.of(born: born, on: self.today) {
                facts.append(("age", HTML.escape(age)))
            }
        } else {
            let kind = [summary.species, summary.morph].compactMap { $0 }.filter { !$0.isEmpty }
            if !kind.isEmpty { facts.append(("species", kind.map(LanguageTag.span).joined(separator: " · "))) }
            if kind.count < 2, let born = summary.born.flatMap(RecordDate.init(iso8601:)), let age = AgeText.of(born: born, on: self.today) {
                facts.append(("age", HTML.escape(age)))
            }
        }
        if let weight = summary.lastWeight {
            facts.append(("weight", "\(HTML.escape(weight.value)) \(HTML.escape(weight.unit)) <span class=\"muted\">(\(HTML.escape(weight.date)))</span>"))
        }
        func since(_ label: String, _ day: String?) {
            guard let day, let date = RecordDate(iso8601: day) else { return }
            let days = today - CalendarDay(date)
            facts.append((label, days == 0 ? "today" : days == 1 ? "1 day ago" : "\(days) days ago"))
        }
        since("fed", summary.lastFeeding)
        since("shed", summary.lastShed)
        if summary.problems > 0 {
            facts.append(("problems", "<a href=\"\(page)\">\(summary.problems)</a>"))
        }
        if !facts.isEmpty {
            out += "<dl>" + facts.map { "<dt>\($0.0)</dt><dd>\($0.1)</dd>" }.joined() + "</dl>"
        }
        return out + "</div></article>\n"
    }
}
