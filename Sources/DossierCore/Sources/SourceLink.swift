import Glibc

/// A symbolic link met among the sources, and whether its file is read through it.
///
/// Whoever can write into a folder Dossier walks (a synced inbox, a share, a dump from someone
/// else) can put a link there to any file Dossier's account can read: a private key, a diary.
/// So a link met while walking is followed only to a regular file inside the folder that was
/// given, of the user Dossier runs as; anything else (a file outside, another user's, a folder, a
/// device, nothing at all, links in a loop) is skipped and said, never read, never copied into
/// the library. A link the user named on the command line (`dossier import LINK`) is followed:
/// the user chose it. A link inside the folder to a file of it is read as that file, routed by
/// the link's own path (a folder of links picking photos for a pet files them under that pet),
/// and `--move` removes the link, never the file it leads to (a source of its own, met by the
/// walk too). Every read opens the file it was judged by and checks its device and inode
/// (`SourceFile.openForReading`), so a link pointed elsewhere in between is never followed.
public enum SourceLink: Hashable, Sendable {
    /// Read through: named by the user, or leading to a file of the folder given.
    case followed
    /// Never read: why, as a person should read it.
    case refused(reason: String)

    /// The `errorCode` of a source skipped for being a link that is not followed.
    public static let refusedCode = "link-not-followed"

    /// How the link at `path`, met while walking the folder `root` the user gave, is taken, and
    /// the status of the file it leads to when it is followed.
    public static func judge(_ path: String, walking root: String) -> (link: SourceLink, target: stat?) {
        let target = SourcePath.displayed(SourcePath.linkTarget(path) ?? "?")
        guard let resolved = SourcePath.realPath(path) else {
            let code = errno
            return (.refused(reason: code == ELOOP ? "it is a link to \(target), which leads back to itself (links in a loop)"
                                                    : "it is a link to \(target), which cannot be read (\(String(cString: strerror(code))))"),
                    nil)
        }
        let shown = SourcePath.displayed(resolved)
        let realRoot = SourcePath.realPath(root) ?? root
        guard resolved.hasPrefix(realRoot == "/" ? "/" : realRoot + "/") else {
            return (.refused(reason: "it is a link to \(shown), outside \(SourcePath.displayed(root)); Dossier never follows a link "
                + "out of the folder it was given (copy the file in instead)"), nil)
        }
        guard let info = SourcePath.status(resolved, followingLinks: false) else {
            return (.refused(reason: "it is a link to \(shown), which cannot be read (\(String(cString: strerror(errno))))"), nil)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let kind = info.st_mode & S_IFMT == S_IFDIR ? "a folder" : "no regular file"
            return (.refused(reason: "it is a link to \(shown), \(kind); Dossier follows a link only to a file"), nil)
        }
        guard info.st_uid == geteuid() else {
            return (.refused(reason: "it is a link to \(shown), a file of another user (uid \(info.st_uid)); Dossier follows a "
                + "link only to a file of its own user (uid \(geteuid()))"), nil)
        }
        return (.followed, info)
    }
}

// MARK: - SourceFile+Met

extension SourceFile {
    /// The file at `path` met while walking `root` (the folder the user gave), as it is now: a
    /// regular file by its own status; a link followed by the status of the file it leads to, or
    /// refused (by the link's own status, so it can be listed); nil for anything else (a folder, a
    /// device, a FIFO) or nothing.
    public static func met(at path: String, walking root: String, namedFolder: String?) -> SourceFile? {
        // Before the status is read: its change time is judged against this moment (`statusIsRacy`).
        let takenAt = SourceFile.clock()
        guard let info = SourcePath.status(path, followingLinks: false) else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return SourceFile(path: path, info: info, namedFolder: namedFolder, statusTakenAt: takenAt)
        case S_IFLNK:
            let (link, target) = SourceLink.judge(path, walking: root)
            return SourceFile(path: path, info: target ?? info, namedFolder: namedFolder, link: link, statusTakenAt: takenAt)
        default:
            return nil
        }
    }
}
