import Foundation

/// Who a library is: a random id made when it was created, kept in `.dossier/library.json`
/// (`{"id": "4d6f...", "createdAt": "...", "createdBy": "0.9.0"}`) and in its index.
///
/// A path says where a library was looked for, not which one is there. A USB drive that is not
/// mounted leaves an empty folder at its mount point; a backup restored elsewhere, a library
/// moved away and another put in its place, all sit at the same path. The id is what tells
/// them apart: `dossier watch` files only into the library it started with, and every command
/// checks that the index it opens was made for this library.
public struct LibraryIdentity: Codable, Equatable, Sendable {
    /// 32 lowercase hex digits, random.
    public let id: String
    public let createdAt: String
    /// The Dossier that made the id.
    public let createdBy: String

    public static let relativePath = ".dossier/library.json"

    /// What is at a library's path.
    public enum State: Equatable, Sendable {
        /// A library with its id.
        case identified(LibraryIdentity)
        /// Something like a library without an id (an index, a time zone or subject folders, but
        /// no `.dossier/library.json`): a library made before libraries had ids, or a photo dump
        /// sorted into `pets/<id>/`. Only `dossier init`, `import` and `subjects add` give it an
        /// id; every other command refuses it.
        case unidentified
        /// No library: the folder is missing, or holds nothing of a library's.
        case absent

        public var isIdentified: Bool {
            if case .identified = self { true } else { false }
        }
    }

    public init(id: String = LibraryIdentity.newID(), createdAt: Date = Date(), createdBy: String = DossierVersion.current) {
        self.id = id
        self.createdAt = ISO8601DateFormatter().string(from: createdAt)
        self.createdBy = createdBy
    }

    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// The first eight digits, enough for a person to tell two libraries apart in a message.
    public var shortID: String { String(id.prefix(8)) }

    /// What the layout's root holds. Throws for an id file that cannot be read or is not one:
    /// a damaged identity is never taken for a missing one (that would make a new library).
    public static func state(of layout: LibraryLayout) throws(LibraryError) -> State {
        let path = layout.root.appendingPathComponent(relativePath).path
        switch try layout.files.entryType(path) {
        case .file:
            let bytes = try layout.files.readFile(path, limit: 64 * 1024)
            guard let identity = try? JSONDecoder().decode(LibraryIdentity.self, from: Data(bytes)),
                  identity.id.count == 32, identity.id.allSatisfy(\.isHexDigit)
            else {
                throw .badConfiguration(path: path, reason: "it is not a library's id file ({\"id\": \"<32 hex digits>\", ...}); "
                    + "restore it from a backup, or move it aside and run `dossier index rebuild` to give the library a new id")
            }
            return .identified(identity)
        case .symbolicLink:
            throw .symbolicLink(path: path)
        case .folder, .other:
            throw .badConfiguration(path: path, reason: "not a file")
        case nil:
            return layout.holdsLibrary ? .unidentified : .absent
        }
    }

    /// Writes a new library's id (or an id for a library made before ids), durably; the caller
    /// holds the library's lock, or is making the library.
    public func write(in layout: LibraryLayout) throws(LibraryError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let json = (try? encoder.encode(self)) ?? Data()
        try layout.files.createFolders(layout.stagingFolder.path)
        try layout.files.replaceFile(at: layout.root.appendingPathComponent(LibraryIdentity.relativePath).path,
                                     with: Array(json) + [0x0A], stagingFolder: layout.stagingFolder.path)
    }
}
