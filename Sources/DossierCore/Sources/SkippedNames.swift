import Glibc

/// Names that sync, download and office tools give files while they are still writing them, and
/// folders they keep their own state in: what `import`'s walk (`SourceDiscovery`) and `watch`'s
/// (`InboxWatcher`) both pass over, so the two take the same files. Such a file is not taken
/// until it is renamed to its real name (the watcher sees that as a move into the inbox); such a
/// folder is never walked. A path named on the command line is taken whatever its name.
///
/// Immich, PhotoPrism and Watchman users lost photos to tools that read these half-written files
/// (Immich #17100, #18023, PhotoPrism #4310, #898, Watchman #562).
public enum SkippedNames {
    /// `*.part` (Firefox, KDE, rsync --partial-dir), `*.partial` (Safari), `*.tmp`,
    /// `*.crdownload` (Chrome), `*.!sync` (Resilio Sync).
    static let writingSuffixes = [".part", ".partial", ".tmp", ".crdownload", ".!sync"]

    /// Whether a file of this name is one still being written, or a tool's own.
    /// Dotfiles cover `.syncthing.*.tmp`, `.DS_Store`, `._IMG_0001.JPG`; `~$*` is an Office lock file.
    public static func isIgnoredFile(_ name: String) -> Bool {
        if name.hasPrefix(".") || name.hasPrefix("~$") { return true }
        let lowered = name.lowercased()
        return writingSuffixes.contains { lowered.hasSuffix($0) }
    }

    /// Whether a folder of this name is a tool's own: dot folders (`.stversions`, `.Trash-1000`,
    /// `.stfolder`) and Synology's `@eaDir` thumbnails.
    public static func isIgnoredFolder(_ name: String) -> Bool {
        name.hasPrefix(".") || name == "@eaDir"
    }

    /// Why an entry of this name is passed over, and the code `--json` gives it; nil when it is
    /// taken.
    public static func whyPassedOver(_ name: String, isFolder: Bool) -> (code: String, reason: String)? {
        if isFolder {
            if name.hasPrefix(".") { return (hiddenCode, "a hidden folder (its name starts with '.'), not walked") }
            if name == "@eaDir" { return (hiddenCode, "Synology's thumbnails folder, not walked") }
            return nil
        }
        if name.hasPrefix(".") { return (hiddenCode, "a hidden file (its name starts with '.'), not imported") }
        if name.hasPrefix("~$") { return (beingWrittenCode, "an Office lock file, not imported") }
        let lowered = name.lowercased()
        if let suffix = writingSuffixes.first(where: { lowered.hasSuffix($0) }) {
            return (beingWrittenCode, "a file a sync or download tool is still writing ('\(suffix)'), taken once it has its real name")
        }
        return nil
    }

    /// The codes of what is passed over: hidden files and folders, files still being written,
    /// and a Dossier report's site.
    public static let hiddenCode = "hidden"
    public static let beingWrittenCode = "being-written"
    public static let reportSiteCode = "report-site"

    /// The file `dossier report` writes first into its site's folder: a folder holding it (or
    /// the site's state, `.report-state.json`, which sites made before the mark hold) is pages
    /// made from a library, never a source, so neither `import` nor `watch` walks it (a report
    /// written into a watched inbox would otherwise be quarantined page by page).
    public static let reportSiteMark = ".dossier-report"
    static let reportSiteState = ".report-state.json"

    /// Whether a folder holds a Dossier report's site (its mark, or its state).
    public static func isReportSite(_ folder: String) -> Bool {
        [reportSiteMark, reportSiteState].contains { name in
            var info = stat()
            return SourcePath.withFileSystemPath("\(folder)/\(name)", { lstat($0, &info) }) == 0 && info.st_mode & S_IFMT == S_IFREG
        }
    }

    /// Why a folder is passed over for what it holds: a report's site. Nil for any other.
    static func whyPassedOver(folder: String) -> (code: String, reason: String)? {
        isReportSite(folder) ? (reportSiteCode, "a Dossier report's site (pages made from a library by `dossier report`), not walked") : nil
    }
}
