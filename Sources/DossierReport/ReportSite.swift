import DossierCore
import DossierPhotos
import DossierRecords
import Foundation

/// Makes the static site of a library: `index.html`, a page per subject, `problems.html`,
/// `quarantine.html` and their stylesheet and script, in `ReportOutput`'s folder. Only what
/// changed is read and written again (`ReportState`).
public struct ReportSite {
    /// What a report did.
    public struct Outcome: Sendable {
        /// The files written, relative to the site's folder.
        public var written: [String] = []
        /// The pages of subjects no longer in the library, removed (with their year pages).
        public var removed: [String] = []
        /// Year pages no longer needed (their subject's records now fit on its page, a year's
        /// records went, or the subject did), removed.
        public var yearPagesRemoved: [String] = []
        /// What the report could not do that leaves the site less than right, said, not failed.
        public var warnings: [String] = []
        /// Files whose bytes were already right.
        public var unchanged = 0
        /// Subject pages made anew, and those whose inputs had not changed (not even read).
        public var subjectsMade = 0
        public var subjectsUnchanged = 0
        /// Subjects whose page could not be made; the rest of the site is written.
        public var failures: [ReportError] = []
        /// Photos no thumbnail could be made of (a damaged file): the page shows the photo itself.
        public var thumbnailFailures: [String] = []
        /// Names the report would write that hold a file it did not write (relative to the
        /// site's folder): left as they are, for a person to move.
        public var leftAlone: [String] = []
    }

    /// The files every report writes, whatever the library holds.
    static let fixedFiles = [IndexPage.path, ProblemsPage.path, QuarantinePage.path, SiteAssets.stylesheetPath, SiteAssets.scriptPath]

    /// The media with their thumbnails (a video's poster frame) from the library's cache, made now
    /// where missing, on every core; one that cannot be made is said, and the page shows the
    /// photo itself, or the video's icon and length.
    static func withThumbnails(_ media: [FiledMedia], layout: LibraryLayout, failures: inout [String]) -> [FiledMedia] {
        let photos = media.indices.filter { media[$0].kind != .audio && media[$0].sha256 != nil && (media[$0].original ?? media[$0].shown) != nil }
        let results = ThumbnailCache(layout: layout).thumbnails(ofPhotos: photos.map {
            (media[$0].original ?? media[$0].shown ?? "", media[$0].sha256 ?? "")
        })
        var media = media
        for (slot, result) in zip(photos, results) {
            switch result {
            case .success(let thumbnail): media[slot].thumbnail = thumbnail
            case .failure(let error): failures.append("\(error)")
            }
        }
        return media
    }

    /// Made part of every page's digest, with Dossier's version: a new version of the pages (or of
    /// Dossier) makes them all again.
    static let version = 1

    /// The running program's size and time: a rebuilt or upgraded `dossier` may draw the pages
    /// differently, so its pages are made again once, though no input changed.
    static let programStamp: String = {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return "" }
        return "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }()

    public let layout: LibraryLayout
    public let output: ReportOutput
    public let today: RecordDate
    /// Write into a folder that holds files the report did not write (`--force`): beside them,
    /// never over them.
    public let force: Bool

    /// The records oldest first, those of one date in the order read. Year files hold theirs in
    /// date order, but one edited by hand may not (or may hold another year's), and the page's
    /// "latest" and each year's page go by the date.
    static func inDateOrder(_ records: [Record]) -> [Record] {
        guard zip(records, records.dropFirst()).contains(where: { $1.date < $0.date }) else { return records }
        return records.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }.map(\.element)
    }

    public init(layout: LibraryLayout, output: ReportOutput, today: RecordDate, force: Bool = false) {
        self.layout = layout
        self.output = output
        self.today = today
        self.force = force
    }

    /// Writes the site. Another report of the same site under way is waited for (`SiteLock`);
    /// `waitingForAnotherReport` hears it first.
    public func generate(waitingForAnotherReport: () -> Void = {}) throws -> Outcome {
        var outcome = Outcome()
        let lock = try SiteLock.take(output.path, through: output.files, waiting: waitingForAnotherReport)
        defer { withExtendedLifetime(lock) {} }
        if case .unsupported(let reason) = lock {
            outcome.warnings.append("the site's folder \(output.path) could not be locked (\(reason)): a report written at the same moment "
                + "could leave pages that disagree until the next report")
        }
        // Looked at under the lock, before the mark is written: another report may have just
        // made the folder its site.
        try output.checkWritable(force: force)
        let marked = output.files.isFile("\(output.path)/\(SkippedNames.reportSiteMark)")
        var writer = SiteWriter(files: output.files, root: output.path)
        let previous = ReportState.read(by: writer)
        let profiles = ProfileStore(layout: layout).allProfiles()
        let subjectPages = profiles.profiles.map(\.subject).sorted().map(SubjectPage.path(of:))
        if previous == nil && writer.exists(ReportState.path) {
            // Only what the state names is ever removed: without it, the pages it named for
            // subjects or years no longer there stay. In a folder the report marked as its own,
            // the names every report writes are the report's, as before its state listed its
            // files; without the mark, nothing there is known to be.
            outcome.warnings.append("the site's record of its last report (\(output.path)/\(ReportState.path)) could not be read: "
                + "every page is made again" + (marked ? " (the index, the problems and quarantine pages and the subjects' pages "
                    + "taken as the report's own)" : "") + ", and pages it wrote for subjects or years no longer there stay until removed by hand")
            writer.own(marked ? Set(ReportSite.fixedFiles + subjectPages) : [], keeping: nil)
        } else {
            writer.own(previous?.ownedFiles ?? [], keeping: previous)
        }
        var state = ReportState(version: ReportSite.version, subjects: [:])

        let identity: LibraryIdentity?
        switch try LibraryIdentity.state(of: layout) {
        case .identified(let known): identity = known
        default: identity = nil
        }
        let index = try LibraryIndex.openReadOnly(layout, identity: identity)
        let problems = try index?.problems() ?? []
        let stuck = try index?.stuckSources() ?? []
        let contents = try index?.contents()
        let digests = Dictionary(contents?.filed.map { ($0.path, $0.sha256) } ?? [], uniquingKeysWith: { first, _ in first })
        let renditions = contents.map { Dictionary($0.renditions.map { ($0.path, $0.photoPath) }, uniquingKeysWith: { first, _ in first }) }
        index?.close()
        let quarantined = try Quarantine(layout: layout).entries()
        let species = (try? LibrarySpecies.table(for: layout)) ?? .builtIn
        let files = layout.files
        let speciesStamp = files.sizeAndModificationTime("\(files.root)/\(LibrarySpecies.configurationPath)")

        // The names this report may make for the first time, claimed in one write of the state.
        try writer.claim(ReportSite.fixedFiles + subjectPages)
        for error in profiles.unreadable {
            outcome.failures.append(.subjectFailed(subject: "\(error)", reason: "its profile could not be read"))
        }
        var summaries: [SubjectSummary] = []
        var greetings: [(SubjectSummary, Anniversary)] = []
        for (subject, profile) in profiles.profiles.sorted(by: { $0.subject < $1.subject }) {
            let pagePath = SubjectPage.path(of: subject)
            var page: String?
            var yearPages: [(path: String, html: String)] = []
            let keptYearPages = (previous?.subjects[subject.path]?.yearPages ?? [:]).filter { RecordsYearPage.isPath($0.key, of: subject) }
            let subjectProblems = problems.filter { $0.routeSubject == subject.path }
            do {
                var media = try SubjectMedia.read(subject, layout: layout, digests: digests, renditions: renditions)
                media.media = ReportSite.withThumbnails(media.media, layout: layout, failures: &outcome.thumbnailFailures)
                let yearFiles = try FolderListing.entries(of: "\(files.root)/\(subject.path)/records", in: files)
                let profileStamp = files.sizeAndModificationTime("\(files.root)/\(layout.profilePath(for: subject))")
                var inputs = ["version \(ReportSite.version) \(DossierVersion.current) \(ReportSite.programStamp)", "today \(today.iso8601)", "library \(output.libraryFromSite)",
                              "profile \(String(describing: profileStamp))", "species \(String(describing: speciesStamp))"]
                inputs += yearFiles.map { "records \($0.name) \($0.size) \($0.modified)" }
                inputs += media.inputs
                inputs += media.media.compactMap { $0.thumbnail.map { "thumbnail \($0)" } }
                inputs += subjectProblems.map { "problem \($0.id ?? 0) \($0.line ?? 0) \($0.reason) \($0.text ?? "")" }
                let digest = ReportState.digest(inputs)
                let summary: SubjectSummary
                var made: String?
                var pageDigest: String?
                var yearPageDigests: [String: String]?
                if let kept = previous?.subjects[subject.path], kept.digest == digest, let keptPage = kept.page,
                   writer.read(pagePath).map(ReportState.digest(ofPage:)) == keptPage,
                   keptYearPages.allSatisfy({ writer.read($0.key).map(ReportState.digest(ofPage:)) == $0.value }) {
                    summary = kept.summary
                    pageDigest = keptPage
                    yearPageDigests = kept.yearPages
                    outcome.subjectsUnchanged += 1
                } else {
                    for slot in media.media.indices where media.media[slot].kind == .video {
                        media.media[slot].seconds = media.media[slot].shown.flatMap { VideoLength.seconds(ofVideoAt: $0, layout: layout) }
                    }
                    var records: [Record] = []
                    try RecordStore(layout: layout).forEachRecord(of: subject) { records.append($0) }
                    records = ReportSite.inDateOrder(records)
                    let data = SubjectData(subject: subject, profile: profile,
                                           group: SubjectData.group(of: subject, profile: profile, species: species),
                                           records: records, media: media.media, problems: subjectProblems)
                    let prefix = "../../" + (output.libraryFromSite == "." ? "" : output.libraryFromSite + "/")
                    let subjectPage = SubjectPage(data: data, today: today, libraryPrefix: prefix)
                    made = subjectPage.render()
                    pageDigest = made.map { ReportState.digest(ofPage: Array($0.utf8)) }
                    yearPages = subjectPage.yearPages()
                    if !yearPages.isEmpty {
                        yearPageDigests = Dictionary(yearPages.map { ($0.path, ReportState.digest(ofPage: Array($0.html.utf8))) },
                                                     uniquingKeysWith: { first, _ in first })
                    }
                    summary = data.summary
                    outcome.subjectsMade += 1
                }
                state.subjects[subject.path] = ReportState.Entry(digest: digest, summary: summary, page: pageDigest,
                                                                 yearPages: yearPageDigests)
                summaries.append(summary)
                if let born = profile?.born {
                    for anniversary in Anniversaries.on(today, born: born, isChild: subject.kind == .children) {
                        greetings.append((summary, anniversary))
                    }
                }
                page = made
            } catch {
                outcome.failures.append(.subjectFailed(subject: subject.path, reason: "\(error)"))
            }
            // Written outside the reading's `catch`: a site that cannot be written (a full disk, a
            // `report` link) stops the report, where a subject that cannot be read skips its page.
            if let page {
                // The year pages before the page that links to them, and those of years it no
                // longer has (its records now fit on the page, or a year file went) only once the
                // page no longer links to them: a write that fails midway leaves no link dangling.
                try writer.claim(yearPages.map(\.path))
                for yearPage in yearPages { try writer.write(yearPage.html, to: yearPage.path) }
                try writer.write(page, to: pagePath)
                let current = Set(yearPages.map(\.path))
                for path in keptYearPages.keys.sorted() where !current.contains(path) {
                    if try writer.removePage(path) { outcome.yearPagesRemoved.append(path) }
                }
            }
        }

        // The pages of subjects gone from the library (renamed, or their folder removed) go too: a
        // page this site wrote, named in its state, never one the site does not know of.
        let existing = Set(layout.existingSubjects().map(\.path))
        // A subject still there whose page could not be made this time (a damaged profile or year
        // file) keeps its entry: its last page stays, and goes once the subject does.
        for (path, entry) in previous?.subjects ?? [:] where state.subjects[path] == nil && existing.contains(path) {
            state.subjects[path] = entry
        }
        for gone in (previous?.subjects.keys).map(Array.init) ?? [] where !existing.contains(gone) {
            guard let subject = try? Subject(parsing: gone) else { continue }
            for path in (previous?.subjects[gone]?.yearPages ?? [:]).keys.sorted() where RecordsYearPage.isPath(path, of: subject) {
                if try writer.removePage(path) { outcome.yearPagesRemoved.append(path) }
            }
            if try writer.removePage(SubjectPage.path(of: subject)) { outcome.removed.append(SubjectPage.path(of: subject)) }
        }

        let prefix = output.libraryFromSite == "." ? "" : output.libraryFromSite + "/"
        let indexPage = IndexPage(summaries: summaries, greetings: greetings, today: today, libraryPrefix: prefix,
                                  problemCount: problems.count, quarantineCount: quarantined.count)
        try writer.write(indexPage.render(), to: IndexPage.path)
        try writer.write(ProblemsPage.render(problems), to: ProblemsPage.path)
        try writer.write(QuarantinePage.render(quarantined, stuck: stuck), to: QuarantinePage.path)
        try writer.write(SiteAssets.stylesheet, to: SiteAssets.stylesheetPath)
        try writer.write(SiteAssets.script, to: SiteAssets.scriptPath)
        // A name claimed and not written (a subject whose page could not be made) is not kept:
        // a file put there later is not the report's.
        state.files = writer.owned.filter(writer.exists).sorted()
        try writer.writeState(state)
        outcome.written = writer.written
        outcome.unchanged = writer.unchanged
        outcome.leftAlone = writer.leftAlone
        return outcome
    }
}
