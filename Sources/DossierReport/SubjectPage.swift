import DossierCore
import DossierPhotos
import DossierRecords

/// `<kind>/<id>/index.html`: a subject's profile, charts, photos and videos by month, care
/// calendar, its latest records (all of them by year on `RecordsYearPage`s past
/// `recordsListed`), and its problems.
struct SubjectPage {
    let data: SubjectData
    let today: RecordDate
    /// The library's root as seen from this page (`../../..`).
    let libraryPrefix: String

    /// The records by the year of their date, newest year first, each year's oldest first: the
    /// page's links and the year pages, grouped once.
    private let recordsByYear: [(year: Int, records: [Record])]

    init(data: SubjectData, today: RecordDate, libraryPrefix: String) {
        self.data = data
        self.today = today
        self.libraryPrefix = libraryPrefix
        var byYear: [Int: [Record]] = [:]
        if data.records.count > SubjectPage.recordsListed {
            for record in data.records { byYear[record.date.year, default: []].append(record) }
        }
        recordsByYear = byYear.keys.sorted(by: >).map { ($0, byYear[$0]!) }
    }

    static func path(of subject: Subject) -> String { "\(subject.path)/index.html" }

    func render() -> String {
        var body = "<p class=\"muted\">\(HTML.escape(data.subject.path))</p>\n"
        body += profileSection()
        body += chartsSection()
        body += mediaSection()
        if data.subject.kind == .pets { body += careSection() }
        body += recordsSection()
        body += problemsSection()
        return PageShell.page(title: data.name, depth: 2, body: body)
    }

    private func link(_ libraryPath: String) -> String {
        HTML.url(libraryPrefix + libraryPath)
    }

    // MARK: Profile

    private func profileSection() -> String {
        var rows: [(String, String)] = []
        func add(_ label: String, _ value: String?) {
            if let value, !value.isEmpty { rows.append((label, LanguageTag.span(value))) }
        }
        let profile = data.profile
        add("aliases", profile?.aliases.joined(separator: ", "))
        add(data.subject.kind == .pets ? "hatched or born" : "born", profile?.born?.iso8601)
        if let born = profile?.born { add("age", AgeText.of(born: born.dayOnly, on: today)) }
        add("sex", profile?.sex?.rawValue)
        add("class", data.group == "other" || data.group == "children" ? profile?.animalClass : data.group)
        add("species", profile?.species)
        add("subspecies", profile?.subspecies)
        add("morph or locality", profile?.morph)
        add("notes", profile?.notes)
        if data.subject.kind == .children, let born = profile?.born,
           let derived = ChildDerivedFields.compute(birth: born, asOf: today) {
            add("zodiac animal (띠)", "\(derived.chineseZodiac.ko) / \(derived.chineseZodiac.en)")
            add("star sign", "\(derived.starSign.ko) / \(derived.starSign.en)")
            add("birthstone", "\(derived.birthstone.ko) / \(derived.birthstone.en)")
            let lunar = derived.lunarBirthday
            add("lunar birthday", "\(lunar.year)-\(lunar.month)-\(lunar.day)\(lunar.isLeapMonth ? " (leap month)" : "")")
            add("100th day (백일)", derived.hundredthDay.iso8601)
            add("first birthday (돌)", derived.firstBirthday.iso8601)
        }
        var out = "<section class=\"profile\"><h2>Profile</h2>\n"
        if rows.isEmpty { return out + "<p class=\"muted\">No profile fields yet (<code>dossier subjects edit</code>).</p></section>\n" }
        out += "<dl class=\"profile\">\n"
        for (label, value) in rows { out += "<dt>\(HTML.escape(label))</dt><dd>\(value)</dd>\n" }
        return out + "</dl></section>\n"
    }

    // MARK: Charts

    private func chartsSection() -> String {
        var charts: [String] = []
        let weights = data.readings(of: SubjectData.weightNames, unit: .grams)
        let lengths = data.readings(of: SubjectData.lengthNames, unit: .centimetres)
        if !weights.isEmpty { charts.append(timeChart(series: "weight", title: "Weight", unit: "g", readings: weights)) }
        if !lengths.isEmpty { charts.append(timeChart(series: "length", title: "Length", unit: "cm", readings: lengths)) }
        if data.subject.kind == .children, let born = data.profile?.born?.dayOnly {
            let female = WHOGrowthStandard.isFemale(data.profile?.sex)
            if let chart = ageChart(.weightForAge, born: born, female: female, scale: 1.0 / 1000, unit: "kg", readings: weights) {
                charts.append(chart)
            }
            if let chart = ageChart(.lengthForAge, born: born, female: female, scale: 1, unit: "cm", readings: lengths) {
                charts.append(chart)
            }
        }
        guard !charts.isEmpty else { return "" }
        return "<section><h2>Growth</h2><div class=\"charts\">\n" + charts.joined() + "</div></section>\n"
    }

    private func point(_ reading: (record: Record, measurement: RecordMeasurement), x: Double, y: Double) -> ChartPoint {
        let day = reading.record.date.dayOnly.iso8601
        let unit = reading.measurement.unit.rawValue
        return ChartPoint(x: x, y: y, date: day, value: RecordLine.number(reading.measurement.value), unit: unit,
                          label: "\(day): \(reading.measurement.shownValue) \(unit)")
    }

    private func timeChart(series: String, title: String, unit: String,
                           readings: [(record: Record, measurement: RecordMeasurement)]) -> String {
        let points = readings.map { point($0, x: Double(CalendarDay($0.record.date).number), y: $0.measurement.value) }
        return SVGChart(series: series, title: title, yUnit: unit, xAxis: .days, points: points).svg
    }

    /// A chart against age in months over WHO's bands (z -2 to 2, and -1 to 1) and median, for the
    /// records from birth to 5 years. Without the child's sex, the points are drawn without bands
    /// rather than against the wrong table.
    private func ageChart(_ indicator: WHOGrowthStandard.Indicator, born: RecordDate, female: Bool?, scale: Double, unit: String,
                          readings: [(record: Record, measurement: RecordMeasurement)]) -> String? {
        let inRange = readings.filter {
            let months = CalendarDay.fractionalMonths(from: born, to: $0.record.date.dayOnly)
            return months >= 0 && months <= 60
        }
        guard !inRange.isEmpty else { return nil }
        let points = inRange.map {
            point($0, x: CalendarDay.fractionalMonths(from: born, to: $0.record.date.dayOnly), y: $0.measurement.value * scale)
        }
        let title = indicator == .weightForAge ? "Weight-for-age" : "Length/height-for-age"
        var chart = SVGChart(series: indicator.rawValue, title: title, yUnit: unit, xAxis: .months, points: points)
        guard let female else {
            chart.caption = "The WHO bands need the child's sex: `dossier subjects edit \(data.subject.path) --sex girl` (or boy)."
            return chart.svg
        }
        let last = Int((points.map(\.x).max() ?? 0).rounded(.up)) + 1
        let rows = WHOGrowthStandard.rows(indicator, female: female).filter { $0.month <= min(60, max(last, 6)) }
        func band(_ z: Double) -> [(x: Double, lower: Double, upper: Double)] {
            rows.map { (Double($0.month), WHOGrowthTable.value(l: $0.l, m: $0.m, s: $0.s, z: -z),
                        WHOGrowthTable.value(l: $0.l, m: $0.m, s: $0.s, z: z)) }
        }
        chart.bands = [ChartBand(name: "WHO: 2nd to 98th percentile (z -2 to 2)", points: band(2), style: "band-outer"),
                       ChartBand(name: "WHO: 16th to 84th percentile (z -1 to 1)", points: band(1), style: "band-inner")]
        chart.medianLine = rows.map { (Double($0.month), $0.m) }
        chart.caption = "Bands: \(female ? "girls" : "boys"), z -2 to 2 and -1 to 1, dashed: the median. " + WHOGrowthStandard.citation
        return chart.svg
    }

    // MARK: Photos and videos

    private func mediaSection() -> String {
        guard !data.media.isEmpty else { return "" }
        var out = "<section class=\"timeline\"><h2>Photos and videos</h2>\n"
        var byMonth: [(String, [FiledMedia])] = []
        for item in data.media.reversed() {
            if byMonth.last?.0 == item.month { byMonth[byMonth.count - 1].1.append(item) } else { byMonth.append((item.month, [item])) }
        }
        for (month, items) in byMonth {
            out += "<div class=\"month\"><h3>\(HTML.escape(month))</h3><div class=\"thumbs\">\n"
            for item in items { out += figure(item) }
            out += "</div></div>\n"
        }
        return out + "</section>\n"
    }

    private func figure(_ item: FiledMedia) -> String {
        switch item.kind {
        case .video:
            guard let shown = item.shown else { return "" }
            let length = item.seconds.map { " " + VideoLength.text($0) } ?? ""
            let caption = "<figcaption>\(HTML.escape(item.day)) video\(length)</figcaption></figure>\n"
            // Nothing of a video is fetched until it is played: its poster frame where one could
            // be made, else an icon with its length that opens the video.
            if let poster = item.thumbnail {
                return "<figure><video controls preload=\"none\" poster=\"\(link(poster))\" src=\"\(link(shown))\"></video>" + caption
            }
            return "<figure><a class=\"video-icon\" href=\"\(link(shown))\" title=\"Play\">&#9654;<span>\(HTML.escape(length))</span></a>" + caption
        case .audio:
            guard let shown = item.shown else { return "" }
            return "<figure><audio controls preload=\"none\" src=\"\(link(shown))\"></audio>"
                + "<figcaption>\(HTML.escape(item.day)) sound</figcaption></figure>\n"
        case .photo:
            var caption = HTML.escape(item.day)
            if let original = item.original, item.shown != nil {
                caption += " <a href=\"\(link(original))\">original</a>"
            }
            if let movie = item.movie {
                caption += " <a href=\"\(link(movie))\">Live Photo movie</a>"
            }
            guard let shown = item.shown, let thumbnail = ThumbnailChooser.thumbnail(for: item) else {
                let original = item.original ?? ""
                return "<figure><a href=\"\(link(original))\">\(HTML.escape((original as String).split(separator: "/").last.map(String.init) ?? ""))</a>"
                    + "<figcaption>\(caption) (no picture a browser shows)</figcaption></figure>\n"
            }
            var out = "<figure><a href=\"\(link(shown))\"><img src=\"\(link(thumbnail))\" loading=\"lazy\" alt=\"\(HTML.escape(data.name)), \(HTML.escape(item.day))\"></a>"
            if let movie = item.movie {
                out += "<video controls preload=\"none\" src=\"\(link(movie))\"></video>"
            }
            return out + "<figcaption>\(caption)</figcaption></figure>\n"
        }
    }

    // MARK: Care

    /// Feedings and sheds by day for the last twelve months that had any, and the days between sheds.
    private func careSection() -> String {
        let fed = Set(data.records.filter { $0.kind == "feeding" }.map { $0.date.dayOnly })
        let shed = Set(data.records.filter { $0.kind == "shedding" }.map { $0.date.dayOnly })
        guard !fed.isEmpty || !shed.isEmpty else { return "" }
        let months = Set((fed.union(shed)).map { $0.year * 12 + $0.month - 1 }).sorted(by: >).prefix(12)
        var out = "<section class=\"care\"><h2>Feeding and shedding</h2>\n"
        out += "<p class=\"muted\">Green: fed; amber: shed.</p><div class=\"table-wrap\"><table class=\"calendar\">\n"
        for key in months {
            let year = key / 12
            let month = key % 12 + 1
            out += "<tr><th>\(String(format: "%04d-%02d", year, month))</th>"
            for day in 1...31 {
                guard let date = RecordDate(year: year, month: month, day: day) else { break }
                var classes: [String] = []
                if fed.contains(date) { classes.append("fed") }
                if shed.contains(date) { classes.append("shed") }
                let title = classes.isEmpty ? "" : " title=\"\(date.iso8601): \(classes.map { $0 == "fed" ? "fed" : "shed" }.joined(separator: ", "))\""
                out += "<td" + (classes.isEmpty ? "" : " class=\"\(classes.joined(separator: " "))\"") + title + ">\(day)</td>"
            }
            out += "</tr>\n"
        }
        out += "</table></div>\n"
        let sheds = shed.sorted { CalendarDay($0) < CalendarDay($1) }
        if sheds.count > 1 {
            out += "<h3>Days between sheds</h3><div class=\"table-wrap\"><table class=\"sheds\"><thead><tr><th>Shed</th><th>Days since the one before</th></tr></thead><tbody>\n"
            var intervals: [Int] = []
            for (previous, next) in zip(sheds, sheds.dropFirst()) {
                let days = CalendarDay(next) - CalendarDay(previous)
                intervals.append(days)
                out += "<tr><td>\(next.iso8601)</td><td>\(days)</td></tr>\n"
            }
            let sorted = intervals.sorted()
            out += "</tbody></table></div><p>Median interval: \(sorted[sorted.count / 2]) days over \(intervals.count) \(intervals.count == 1 ? "interval" : "intervals").</p>\n"
        }
        return out + "</section>\n"
    }

    // MARK: Records

    /// A page lists at most this many records, the latest: a log kept for years holds a hundred
    /// thousand, and a page of them all (19 MB) is more than a phone's browser opens. Past it,
    /// every record is listed on its year's page (`RecordsYearPage`).
    static let recordsListed = 1_000

    /// The year pages of a subject with more records than its page lists, newest year first;
    /// none otherwise.
    func yearPages() -> [(path: String, html: String)] {
        recordsByYear.map { year, records in
            (RecordsYearPage.path(of: data.subject, year: year), RecordsYearPage(data: data, year: year, records: records).render())
        }
    }

    private func recordsSection() -> String {
        var out = "<section><h2>Records (\(data.records.count))</h2>\n"
        guard !data.records.isEmpty else { return out + "<p class=\"muted\">No records yet.</p></section>\n" }
        if !recordsByYear.isEmpty {
            let years = recordsByYear.map { year, records in
                "<a href=\"\(RecordsYearPage.fileName(year: year))\">\(RecordsYearPage.shown(year))</a> (\(records.count))"
            }
            out += "<p class=\"years\">The latest \(SubjectPage.recordsListed) are listed here. Every record, by year: "
                + years.joined(separator: ", ") + ".</p>\n"
        }
        out += RecordsTable.html(data.records.suffix(SubjectPage.recordsListed).reversed())
        return out + "</section>\n"
    }

    // MARK: Problems

    private func problemsSection() -> String {
        guard !data.problems.isEmpty else { return "" }
        var out = "<section><h2>Problems (\(data.problems.count))</h2>\n"
        out += "<p>Lines of this subject's logs that were not filed. Fix the cause (an alias, a unit in "
            + "<code>config/records.json</code>), then <code>dossier problems retry</code>; or "
            + "<code>dossier problems dismiss ID</code>.</p>\n"
        out += ProblemsPage.table(data.problems)
        return out + "</section>\n"
    }
}
