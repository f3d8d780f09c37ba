import DossierCore
import Foundation

/// Writes the site's files through `LibraryFileSystem` rooted where it may write, each only
/// when its bytes differ from what is there, each whole: staged in the site's own `.staging`
/// folder, fsynced, renamed into place. A browser (or a sync tool) never sees half a page, and a
/// report with nothing new rewrites nothing.
struct SiteWriter {
    let files: LibraryFileSystem
    /// The site's folder, absolute.
    let root: String

    private(set) var written: [String] = []
    private(set) var unchanged = 0

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

    var stagingFolder: String { "\(root)/.staging" }

    /// Writes `text` to `relativePath` (below the site's folder) unless it holds those bytes.
    mutating func write(_ text: String, to relativePath: String) throws(LibraryError) {
        let bytes = Array(text.utf8)
        let path = "\(root)/\(relativePath)"
        if files.fileSize(path) == Int64(bytes.count), (try? files.readFile(path)) == bytes {
            unchanged += 1
            return
        }
        try files.createFolders(stagingFolder)
        try files.replaceFile(at: path, with: bytes, stagingFolder: stagingFolder)
        written.append(relativePath)
    }

    /// Removes a page this site wrote, and its folder once nothing else is in it (a folder the
    /// user put something in stays). False when there was no such page.
    @discardableResult
    mutating func removePage(_ relativePath: String) throws(LibraryError) -> Bool {
        let path = "\(root)/\(relativePath)"
        guard files.isFile(path) else { return false }
        try files.remove(path)
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
