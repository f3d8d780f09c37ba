import DossierTestSupport
import Foundation

/// The public conformance corpora in ../shared/corpora, beside the checkout.
enum Corpora {
    static let root: URL = SharedCorpora.root

    static func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url(relativePath)))
    }

    /// Every file under a corpus folder whose name ends with one of `extensions`, sorted, as paths
    /// relative to the corpora root.
    static func files(under folder: String, extensions: Set<String>) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: url(folder).path) else { return [] }
        var found: [String] = []
        while let path = enumerator.nextObject() as? String {
            if extensions.contains((path as NSString).pathExtension.lowercased()) { found.append("\(folder)/\(path)") }
        }
        return found.sorted()
    }
}

/// The repository's own Samples folder.
enum DossierSamples {
    static func url(_ relativePath: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples/\(relativePath)")
    }
}
