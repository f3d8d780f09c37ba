/// Dossier's version, as `dossier --version` says it and quarantine notes record it (so a file
/// quarantined by an older version is known to be worth a retry after an upgrade).
public enum DossierVersion {
    public static let current = "0.1.0"
}
