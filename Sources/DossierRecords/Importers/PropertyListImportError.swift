import DossierCore

/// A property list that holds none of what Dossier imports (an iPhone photo's `.AAE` edit
/// sidecar, an app's settings): skipped, saying what it holds.
enum PropertyListImportError {
    static func unknownShape(_ detail: String) -> NotImportable {
        NotImportable("a property list, but not a profile list, species taxonomy or record list: \(detail)")
    }
}
