import DossierCore
import Foundation

/// Writes the site's files through `LibraryFileSystem` rooted where it may write, each only
/// when its bytes differ from what is there, each whole: staged in the site's own `.staging`
/// folder, fsynced, renamed into place. A browser (or a sync tool) never sees half a page, and a
/// report with nothing new rewrites nothing.
///
/// It replaces only a file the report wrote: one its state lists (`owned`). A name it has not
/// written before is claimed in the state first (`claim`), then made without replacing anything
/// there; a name that holds a file the report did not write is left alone (`leftAlone`), however
/// the report came to write into that folder (`--force`, a site made before the state listed its
/// files). Claimed before it is made, a page a killed report left is still the report's own.
struct SiteWriter {
    let files: LibraryFileSystem
    /// The site's folder, absolute.
    let root: String

    private(set) var written: [String] = []
    private(set) var unchanged = 0
    /// The site's files the report wrote or claimed, relative to its folder: what it may replace.
    private(set) var owned: Set<String> = []
    /// Names the report would write that hold a file it did not write: left as they are.
    private(set) var leftAlone: [String] = []
    /// The state the claims are written into, between the last report's and this one's.
    private var claimsState = ReportState(version: ReportSite.version, subjects: [:])

    /// A staged page older than this was left by a report that was killed.
    static let abandonedAfter: TimeInterval = 24 * 3600

    /// The writer of the site at `root`; what a killed report left in its staging a day or more
    /// ago goes (a younger file may be another report's, under way).
    init(files: LibraryFileSystem, root: String) {
        self.files = files
        self.root = root
        // The mark first, before any page: `import` and `watch` never walk a folder holding it,
        // so a site written into an inbox is not taken for photos and notes to file.
        let mark = "\(root)/\(SkippedNames.reportSiteMark)"
        if !files.isFile(mark) {
            try? files.writeNewFile(Array("A Dossier report: pages made from a library by `dossier report`, never imported.\n".utf8),
                                    at: mark)
        }
        files.removeFilesLeft(in: stagingFolder, olderThan: SiteWriter.abandonedAfter)
    }

    var stagingFolder: String { "\(root)/\(ReportOutput.stagingName)" }

    /// Takes `files` as the report's own (what the last report's state says it wrote); the
    /// claims written from now on keep `previous`'s subjects.
    mutating func own(_ files: Set<String>, keeping previous: ReportState?) {
        owned = files
        if let previous { claimsState = previous }
    }

    /// Claims, in the site's state, the names of `relativePaths` that hold nothing yet and that
    /// the report has not claimed before, in one write of the state (none when there is none
    /// new): from then on they are the report's to write, even if this report is killed before
    /// its state is written at the end.
    mutating func claim(_ relativePaths: [String]) throws(LibraryError) {
        let new = relativePaths.filter { !owned.contains($0) && (try? files.entryType("\(root)/\($0)")) == .some(nil) }
        guard !new.isEmpty else { return }
        owned.formUnion(new)
        claimsState.files = owned.sorted()
        try files.createFolders(stagingFolder)
        try files.replaceFile(at: "\(root)/\(ReportState.path)", with: claimsState.encoded, stagingFolder: stagingFolder)
    }

    /// Writes `text` to `relativePath` (below the site's folder) unless it holds those bytes; a
    /// file there the report did not write is left alone.
    mutating func write(_ text: String, to relativePath: String) throws(LibraryError) {
        let bytes = Array(text.utf8)
        let path = "\(root)/\(relativePath)"
        if files.fileSize(path) == Int64(bytes.count), (try? files.readFile(path)) == bytes {
            // The very bytes the report would write: its own page, whoever put it there.
            owned.insert(relativePath)
            unchanged += 1
            return
        }
        if try files.entryType(path) != nil {
            guard owned.contains(relativePath) else {
                leftAlone.append(relativePath)
                return
            }
            try files.createFolders(stagingFolder)
            try files.replaceFile(at: path, with: bytes, stagingFolder: stagingFolder)
        } else {
            try claim([relativePath])
            try files.createFolders(stagingFolder)
            let staged = "\(stagingFolder)/\(UUID().uuidString).part"
            try files.writeNewFile(bytes, at: staged)
            defer { try? files.remove(staged) }
            // Never over a file put there since it was looked at.
            guard try files.link(staged, to: path) == .linked else {
                owned.remove(relativePath)
                leftAlone.append(relativePath)
                return
            }
        }
        written.append(relativePath)
    }

    /// Writes the site's state, the report's own file (never left alone), unless it holds those
    /// bytes.
    mutating func writeState(_ state: ReportState) throws(LibraryError) {
        let bytes = state.encoded
        let path = "\(root)/\(ReportState.path)"
        if files.fileSize(path) == Int64(bytes.count), (try? files.readFile(path)) == bytes {
            unchanged += 1
            return
        }
        try files.createFolders(stagingFolder)
        try files.replaceFile(at: path, with: bytes, stagingFolder: stagingFolder)
        written.append(ReportState.path)
    }

    /// Removes a page this site wrote, and its folder once nothing else is in it (a folder the
    /// user put something in stays). False when there was no such page.
    @discardableResult
    mutating func removePage(_ relativePath: String) throws(LibraryError) -> Bool {
        let path = "\(root)/\(relativePath)"
        guard owned.contains(relativePath), files.isFile(path) else { return false }
        try files.remove(path)
        owned.remove(relativePath)
        try files.removeFolderIfEmpty((path as NSString).deletingLastPathComponent)
        return true
    }

    /// Whether a page is there (a page in the state whose file was deleted is made again).
    func exists(_ relativePath: String) -> Bool {
        files.isFile("\(root)/\(relativePath)")
    }

    /// The size of a site file, nil when there is none.
    func size(of relativePath: String) -> Int64? {
        files.fileSize("\(root)/\(relativePath)")
    }

    /// The bytes of a site file, nil when there is none.
    func read(_ relativePath: String) -> [UInt8]? {
        try? files.readFile("\(root)/\(relativePath)")
    }
}
