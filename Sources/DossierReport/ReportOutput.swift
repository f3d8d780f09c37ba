import DossierCore
import Foundation

/// Where the site goes, and the one file system it is written through. Inside the library (the
/// default `<library>/report/`) that is the library's own `LibraryFileSystem`, walking from the
/// library's root without following a link, so a `report` link out of the library is refused;
/// elsewhere it is one rooted at `--out`, so nothing is ever written outside that folder.
public struct ReportOutput: Sendable {
    /// The site's folder, absolute, links in the part that already existed resolved.
    public let path: String
    let files: LibraryFileSystem
    /// The library's root as seen from the site's folder (`..`): what makes the pages' links to
    /// photos relative, so the site opens from the disk and still works when the drive is
    /// mounted elsewhere.
    let libraryFromSite: String

    /// The site is outside the library: its file system is rooted at the site, not the library.
    public var isOutsideLibrary: Bool { files.root == path }

    /// Folders of a library that belong to Dossier, not to the report.
    static let libraryFolders: Set<String> = [".dossier", "sources", "originals", "quarantine", "config", "damaged"]

    /// Resolves `--out` (nil: `<library>/report`), refusing a place inside a subject's folder,
    /// the library itself or its own folders, and a folder that holds the library.
    public static func resolve(_ out: String?, layout: LibraryLayout) throws(ReportError) -> ReportOutput {
        let named = out.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? "\(layout.root.path)/report"
        // A place named inside the library is taken by its name, below the library's root as the
        // user named it: a link on the way (a `report` link to elsewhere) is then refused by
        // `LibraryFileSystem` when the site is written, never followed. Only a place named
        // outside is looked at through its links, to find one that leads into the library.
        let namedInside = named.hasPrefix(layout.root.path + "/")
        let library = namedInside ? layout.root.path : realPath(layout.root.path)
        let path = namedInside ? named : realPath(named)
        if path == library {
            throw .refusedOutput(path: named, reason: "is the library itself; give a folder of its own (the default is <library>/report)")
        }
        if library.hasPrefix(path == "/" ? "/" : path + "/") {
            throw .refusedOutput(path: named, reason: "holds the library; give a folder inside it or beside it")
        }
        if path.hasPrefix(library + "/") {
            let inside = String(path.dropFirst(library.count + 1))
            let first = String(inside.prefix { $0 != "/" })
            if SubjectKind(rawValue: first) != nil {
                throw .refusedOutput(path: named, reason: "lies inside the library's \(first)/ folder, where subjects' files are; "
                    + "the report never writes among them (the default is <library>/report)")
            }
            if libraryFolders.contains(first) {
                throw .refusedOutput(path: named, reason: "lies inside the library's own \(first)/ folder")
            }
            return ReportOutput(path: path, files: LibraryFileSystem(root: library),
                                libraryFromSite: relative(from: path, to: library))
        }
        try makeFolders(path, named: named)
        return ReportOutput(path: path, files: LibraryFileSystem(root: path), libraryFromSite: relative(from: path, to: library))
    }

    /// Refuses a site's folder that holds anything and is not a report's site (its mark, or the
    /// state of a site made before the mark): a person's folder given as --out by mistake. With
    /// `force` it is written beside what is there (`SiteWriter` replaces no file the report did
    /// not write), unless it holds `.staging`, where the report stages its pages and clears
    /// what a killed report left.
    public func checkWritable(force: Bool) throws(ReportError) {
        guard !SkippedNames.isReportSite(path) else { return }
        let names = ((try? files.names(in: path)) ?? []).sorted()
        guard !names.isEmpty else { return }
        if force {
            guard names.contains(ReportOutput.stagingName) else { return }
            throw .occupiedSite(path: path, names: [ReportOutput.stagingName], more: 0, force: true)
        }
        let shown = 5
        throw .occupiedSite(path: path, names: Array(names.prefix(shown)), more: max(0, names.count - shown), force: false)
    }

    /// The folder in the site where pages are staged before they take their names.
    static let stagingName = ".staging"

    /// Makes the folder `path` and those above it that are missing, saying which one could not
    /// be made and why (a file where a folder belongs, no permission).
    static func makeFolders(_ path: String, named: String) throws(ReportError) {
        var folder = ""
        for component in path.split(separator: "/") {
            folder += "/" + component
            if mkdir(folder, 0o755) == 0 { continue }
            let cause = FailureCause.errno()
            var info = stat()
            guard stat(folder, &info) == 0 else {
                throw .refusedOutput(path: named, reason: "cannot be made: \(SourcePath.displayed(folder)): \(cause)")
            }
            if info.st_mode & S_IFMT != S_IFDIR {
                throw .refusedOutput(path: named, reason: "cannot be made: \(SourcePath.displayed(folder)) is a file where a folder belongs")
            }
        }
    }

    /// `path` with the links of its longest existing part resolved, the rest appended: the
    /// folder it names, whether or not it exists yet.
    static func realPath(_ path: String) -> String {
        var existing = URL(fileURLWithPath: path).standardizedFileURL.path
        var rest: [String] = []
        while existing != "/" {
            if let resolved = realpath(existing, nil) {
                defer { free(resolved) }
                let base = String(cString: resolved)
                return ([base == "/" ? "" : base] + rest.reversed()).joined(separator: "/")
            }
            rest.append((existing as NSString).lastPathComponent)
            existing = (existing as NSString).deletingLastPathComponent
        }
        return "/" + rest.reversed().joined(separator: "/")
    }

    /// The relative path from folder `from` to `to`, both absolute.
    static func relative(from: String, to: String) -> String {
        let fromParts = from.split(separator: "/")
        let toParts = to.split(separator: "/")
        var common = 0
        while common < fromParts.count, common < toParts.count, fromParts[common] == toParts[common] { common += 1 }
        let parts = Array(repeating: "..", count: fromParts.count - common) + toParts[common...].map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
