import Foundation

/// A fresh folder under the system's temporary folder, removed when the value goes away.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ relativePath: String) -> String { url.appendingPathComponent(relativePath).path }

    func write(_ bytes: [UInt8], to relativePath: String) throws {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
    }

    /// Regular files below `relativePath`, relative to it, sorted; `.dossier` left out.
    func files(under relativePath: String) -> [String] {
        let root = url.appendingPathComponent(relativePath)
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder)
            if !isFolder.boolValue && !path.hasPrefix(".dossier") { files.append(path) }
        }
        return files.sorted()
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
