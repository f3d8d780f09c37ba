import Foundation

/// Keeps a photo's source bytes under `originals/`, once per content, named after the photo's
/// filed name (`originals/pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg`, with the
/// source's own extension), so a person who finds the filed photo finds the camera's bytes:
/// where the filed photo is not them (its pixels encoded again), they would otherwise be lost
/// once `--move` or the daemon removes the source. `OriginalsPolicy` says which photos.
public struct OriginalKeeper: Sendable {
    public let layout: LibraryLayout
    public let index: (any LibraryCatalog)?

    public init(layout: LibraryLayout, index: (any LibraryCatalog)?) {
        self.layout = layout
        self.index = index
    }

    /// Keeps the bytes of `source`, which were read as `digest`, beside the photo filed at
    /// `filedPath` (relative to the root); where the library keeps these bytes already, whole,
    /// that copy stands. Durable when it returns: copied, fsynced, linked, its folder fsynced.
    /// A source whose bytes changed since they were read is refused: what is kept is what was filed.
    public func keep(_ source: SourceFile, digest: ContentDigest, filedPath: String) throws -> KeptOriginal {
        let filer = Filer(layout: layout, index: nil, dryRun: false)
        let known = try index?.originals(sha256: digest.hex) ?? []
        for original in known where try filer.holdsSameBytes(try layout.url(forRelativePath: original.path).path, digest: digest) {
            return original
        }
        let staged = try SourceKeeper(layout: layout).stage(source)
        defer { try? layout.files.remove(staged.stagedPath) }
        guard staged.digest == digest else {
            throw SourceReadError.unreadable("it changed while it was imported (its bytes are not the ones filed); import it again")
        }
        try staged.durable.wait()
        for attempt in 0..<Filer.maximumCollisions {
            let relative = OriginalKeeper.relativePath(forFiled: filedPath, sourceName: source.fileName, attempt: attempt)
            let path = try layout.url(forRelativePath: relative).path
            switch try layout.files.link(staged.stagedPath, to: path) {
            case .linked:
                return KeptOriginal(sha256: digest.hex, path: relative, size: staged.size)
            case .nameTaken:
                // A run stopped after the link left these very bytes here: made durable, they stand.
                if try filer.holdsSameBytes(path, digest: digest) {
                    try layout.files.syncFile(path)
                    return KeptOriginal(sha256: digest.hex, path: relative, size: staged.size)
                }
                // This original, damaged since it was kept: the good bytes take its name back, the
                // damaged ones kept under damaged/ (never deleted).
                if known.contains(where: { $0.path == relative }) {
                    try filer.putCopy(of: staged.stagedPath, at: relative)
                    return KeptOriginal(sha256: digest.hex, path: relative, size: staged.size)
                }
            }
        }
        throw LibraryError.cannotWrite(path: layout.root.appendingPathComponent("originals").path,
                                       reason: "\(Filer.maximumCollisions) other originals already hold the name of \(filedPath)")
    }

    /// `originals/<the filed path, its extension the source's>`, `-2`, `-3`... after the name
    /// when other bytes hold it. The source's extension as it is, lower-cased, when it is a plain
    /// one (`.jpg`, `.heic`), else the filed one's.
    static func relativePath(forFiled filedPath: String, sourceName: String, attempt: Int) -> String {
        let sourceExtension = (sourceName as NSString).pathExtension.lowercased()
        let plain = !sourceExtension.isEmpty && sourceExtension.utf8.count <= 10
            && sourceExtension.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        let fileExtension = plain ? sourceExtension : (filedPath as NSString).pathExtension
        let stem = (filedPath as NSString).deletingPathExtension
        return "originals/\(stem)\(attempt == 0 ? "" : "-\(attempt + 1)")" + (fileExtension.isEmpty ? "" : ".\(fileExtension)")
    }
}
