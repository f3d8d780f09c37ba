/// The file in the library that holds a source's content, and the digest its bytes must have:
/// what `--move` checks before it removes the source.
struct SafeCopy: Sendable, Equatable {
    /// Relative to the library root.
    let path: String
    let digest: ContentDigest
}
