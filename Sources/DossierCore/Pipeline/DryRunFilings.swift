import Synchronization

/// What a dry run would have filed so far, so it says of a later source what the import would:
/// the second of two photos of the same bytes (or of two logs of the same entries) is a
/// duplicate, not a second import, though nothing was written for the first. One for a whole
/// run, shared by its passes; its settling steps, one source at a time, read and add to it.
final class DryRunFilings: Sendable {
    private struct State {
        /// The path each photo would be filed under, by its subject and digest.
        var photos: [String: String] = [:]
        /// The ids of the records each year file would gain, by its path.
        var records: [String: Set<UInt64>] = [:]
    }

    private let state = Mutex(State())

    /// Where a photo of `subject` with these bytes would already be filed in this run; nil the
    /// first time, which notes `path` as where it would be.
    func photo(of subject: Subject, digest: ContentDigest, wouldBeFiledAt path: String) -> String? {
        let key = "\(subject.path) \(digest.hex)"
        return state.withLock { state in
            if let earlier = state.photos[key] { return earlier }
            state.photos[key] = path
            return nil
        }
    }

    /// Of `ids`, meant for the year file at `path`, those no earlier source of this run would
    /// add there; notes them as added.
    func recordsNotYetAdded(_ ids: Set<UInt64>, to path: String) -> Set<UInt64> {
        state.withLock { state in
            let fresh = ids.subtracting(state.records[path] ?? [])
            state.records[path, default: []].formUnion(fresh)
            return fresh
        }
    }
}
