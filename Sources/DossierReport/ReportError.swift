import DossierCore

/// Why a report could not be made, or a page of it written.
public enum ReportError: Error, Equatable, CustomStringConvertible {
    /// `--out` names a place the report must not write: inside a subject's folder, or the
    /// library's own folders.
    case refusedOutput(path: String, reason: String)
    /// A page of one subject could not be made (a year file that is not records, a profile that
    /// is not JSON); the other pages are written.
    case subjectFailed(subject: String, reason: String)

    public var description: String {
        switch self {
        case .refusedOutput(let path, let reason): return "--out \(SourcePath.displayed(path)): \(reason)"
        case .subjectFailed(let subject, let reason): return "\(subject): \(reason); its page was not written"
        }
    }
}
