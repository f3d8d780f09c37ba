import DossierCore

/// Why a report could not be made, or a page of it written.
public enum ReportError: Error, Equatable, CustomStringConvertible {
    /// `--out` names a place the report must not write: inside a subject's folder, or the
    /// library's own folders.
    case refusedOutput(path: String, reason: String)
    /// The site's folder holds files the report did not write, and not the report's mark: a
    /// person's folder (`--out ~/Sites` for `~/Sites/dossier`). `names`: some of what is there.
    /// `force`: refused even with `--force` (it holds the names the report keeps its own work
    /// under).
    case occupiedSite(path: String, names: [String], more: Int, force: Bool)
    /// A page of one subject could not be made (a year file that is not records, a profile that
    /// is not JSON); the other pages are written.
    case subjectFailed(subject: String, reason: String)

    public var description: String {
        switch self {
        case .refusedOutput(let path, let reason): return "--out \(SourcePath.displayed(path)): \(reason)"
        case .subjectFailed(let subject, let reason): return "\(subject): \(reason); its page was not written"
        case .occupiedSite(let path, let names, let more, let force):
            let listed = names.map { SourcePath.displayed($0) }.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
            if force {
                return "the report's site \(SourcePath.displayed(path)) holds \(listed), where the report keeps its own work, and no "
                    + "report's mark (\(SkippedNames.reportSiteMark)): even with --force it is not written; move \(names.count + more == 1 ? "it" : "them") away, "
                    + "or give another --out"
            }
            return "the report's site \(SourcePath.displayed(path)) holds files the report did not write (\(listed)) and no report's "
                + "mark (\(SkippedNames.reportSiteMark)); a report is written only into a folder that is empty, new, or one it made. "
                + "Give a folder of its own (--out \(SourcePath.displayed(path))/dossier), or add --force to write beside them "
                + "(no file it did not write is replaced even then)"
        }
    }
}
