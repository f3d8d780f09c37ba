import DossierCore
import Foundation

/// Reads and writes subjects' `profile.json` files.
public struct ProfileStore: Sendable {
    public let layout: LibraryLayout

    public init(layout: LibraryLayout) {
        self.layout = layout
    }

    public func profile(of subject: Subject) throws -> SubjectProfile? {
        let path = layout.root.appendingPathComponent(layout.profilePath(for: subject)).path
        // Read through the library's own file system: a link standing at a profile's name is
        // never followed out of the library, and a folder there is no profile.
        switch try? layout.files.entryType(path) {
        case nil: return nil
        case .file?: break
        case .folder?: throw ProfileError.unreadable(path: path, reason: "a folder stands where it belongs")
        default: throw ProfileError.unreadable(path: path, reason: "a link or another kind of file stands where it belongs")
        }
        let bytes: [UInt8]
        do {
            bytes = try layout.files.readFile(path)
        } catch {
            throw ProfileError.unreadable(path: path, reason: "cannot be read: \(error)")
        }
        switch ProfileStore.read(bytes, of: subject) {
        case .success(let profile): return profile
        case .failure(let problem): throw ProfileError.unreadable(path: path, reason: problem.reason)
        }
    }

    /// Every subject with a folder, with its profile where it has one, sorted; and the profiles
    /// that cannot be read, so one damaged profile hides no other subject.
    public func allProfiles() -> (profiles: [(subject: Subject, profile: SubjectProfile?)], unreadable: [ProfileError]) {
        var profiles: [(subject: Subject, profile: SubjectProfile?)] = []
        var unreadable: [ProfileError] = []
        for subject in layout.existingSubjects().sorted() {
            do {
                profiles.append((subject, try profile(of: subject)))
            } catch let error as ProfileError {
                unreadable.append(error)
            } catch {
                unreadable.append(.unreadable(path: layout.profilePath(for: subject), reason: "\(error)"))
            }
        }
        return (profiles, unreadable)
    }

    /// Starts a damaged profile again, holding only what is certain (its subject, named by its
    /// id): the damaged bytes are kept under `damaged/`, whose path is returned. The library must
    /// be locked.
    public func startAgain(_ subject: Subject) throws -> String? {
        try FilingContext(layout: layout, dryRun: false).replaceDamagedFile(
            atRelativePath: layout.profilePath(for: subject),
            with: try SubjectProfile(subject: subject, name: subject.id.rawValue).encoded())
    }

    /// Why bytes are not `subject`'s profile, nil when they are (what `dossier verify` checks):
    /// a profile naming another subject would make this one answer to another's name.
    public static func problem(with bytes: [UInt8], of subject: Subject) -> String? {
        if case .failure(let problem) = read(bytes, of: subject) { return problem.reason }
        return nil
    }

    /// Why bytes are not a profile, in words.
    struct Problem: Error {
        let reason: String
    }

    /// `subject`'s profile from its bytes, or why they are not it.
    static func read(_ bytes: [UInt8], of subject: Subject) -> Result<SubjectProfile, Problem> {
        do {
            let profile = try JSONDecoder().decode(SubjectProfile.self, from: Data(bytes))
            guard profile.subject == subject else {
                return .failure(Problem(reason: "it is the profile of \(profile.subject.path), not of \(subject.path)"))
            }
            return .success(profile)
        } catch {
            return .failure(Problem(reason: reason(error)))
        }
    }

    /// Why bytes are not a profile, in a person's words rather than the decoder's.
    static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context)? where context.codingPath.isEmpty:
            return "it is not JSON (cut short, or written over)"
        case .dataCorrupted(let context)?:
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' is not what a profile holds there"
        case .keyNotFound(let key, _)?:
            return "it has no '\(key.stringValue)'"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return field.isEmpty ? "it is not a JSON object" : "'\(field)' is not what a profile holds there"
        default:
            return "\(error)"
        }
    }

    /// Writes a profile atomically (staged, fsynced, renamed). The library must be locked.
    public func save(_ profile: SubjectProfile, dryRun: Bool = false) throws {
        try FilingContext(layout: layout, dryRun: dryRun)
            .replaceFile(atRelativePath: layout.profilePath(for: profile.subject), with: try profile.encoded())
    }
}
