import Foundation

/// A fresh folder under the system's temporary folder, removed when the value goes away: where
/// tests build their inputs and libraries.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public var path: String { url.path }

    public func path(_ relativePath: String) -> String { url.appendingPathComponent(relativePath).path }

    /// Writes a file (creating its folders); returns its path.
    @discardableResult
    public func write(_ bytes: [UInt8], to relativePath: String) throws -> String {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        return file.path
    }

    @discardableResult
    public func write(_ text: String, to relativePath: String) throws -> String {
        try write(Array(text.utf8), to: relativePath)
    }

    /// Regular files below `relativePath`, relative to it, sorted; `.dossier` left out.
    public func files(under relativePath: String) -> [String] {
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
