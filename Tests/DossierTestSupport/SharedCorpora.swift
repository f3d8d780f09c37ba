import Foundation
import Testing

/// The public corpora the conformance tests read (PngSuite, csv-spectrum, cpython's plists...):
/// never copied into the repository. They lie beside the checkout as `../shared/corpora`, or
/// where `DOSSIER_CORPORA` says.
///
/// Without them the corpus suites are skipped with a message saying where they come from; with
/// `CI=true` they run, and fail, since CI always has them and a silent skip there would hide a
/// broken set-up.
public enum SharedCorpora {
    public static let root: URL = {
        if let configured = ProcessInfo.processInfo.environment["DOSSIER_CORPORA"], !configured.isEmpty {
            return URL(fileURLWithPath: configured).standardizedFileURL
        }
        return DossierBinary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora").standardizedFileURL
    }()

    public static func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    public static var isPresent: Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder) && isFolder.boolValue
    }

    public static var absentMessage: Comment {
        Comment(rawValue: "the public corpora are not at \(root.path): put them beside the checkout as ../shared/corpora "
            + "(its README lists each corpus and where it comes from), or set DOSSIER_CORPORA to their folder")
    }

    /// For a suite that reads the corpora: skipped with `absentMessage` when they are absent,
    /// except under CI.
    public static var required: ConditionTrait {
        .enabled(if: isPresent || ProcessInfo.processInfo.environment["CI"] == "true", absentMessage)
    }
}
