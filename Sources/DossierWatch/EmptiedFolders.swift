import DossierCore
import Foundation
import Glibc

/// Removes the inbox folders the daemon emptied, so a dump's folder does not linger once all of
/// it is filed. Never the inbox itself, nor `INBOX/pets/<id>` and `INBOX/children/<id>` of a
/// subject the library has: those are where people drop files, and a sync tool's share of them
/// must stay. Only empty folders go (`rmdir` refuses any other), and only those a source was
/// taken out of.
struct EmptiedFolders {
    let inbox: String
    let subjects: Set<Subject>

    /// Walks up from each left source's folder, removing folders while they are empty.
    func remove(above leftPaths: [String]) {
        var folders = Set(leftPaths.map { ($0 as NSString).deletingLastPathComponent })
        // Deepest first, so a parent is tried after its children.
        while let folder = folders.max(by: { $0.count < $1.count }) {
            folders.remove(folder)
            guard folder.hasPrefix(inbox + "/"), !isKept(folder),
                  SourcePath.withFileSystemPath(folder, { rmdir($0) }) == 0
            else { continue }
            folders.insert((folder as NSString).deletingLastPathComponent)
        }
    }

    private func isKept(_ folder: String) -> Bool {
        let parts = folder.dropFirst(inbox.count + 1).split(separator: "/").map(String.init)
        guard parts.count == 2, let kind = SubjectKind(rawValue: parts[0]),
              let subject = try? Subject(parsing: "\(kind.rawValue)/\(parts[1])")
        else { return false }
        return subjects.contains(subject)
    }
}
