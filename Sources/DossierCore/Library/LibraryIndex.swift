import Foundation
import GRDB

/// The library's SQLite index (`.dossier/index.sqlite`): a fast way in, never the truth. It can be
/// rebuilt from the subject folders (`rebuild(from:)`).
///
/// It uses SQLite's rollback journal rather than WAL so that a dry run can open it truly
/// read-only, creating no `-wal` or `-shm` files beside it. Commits are synchronous (FULL):
/// `--move` deletes a source only after the commit that records it.
public final class LibraryIndex: Sendable {
    private let database: DatabaseQueue
    private let path: String

    /// Opens (creating if needed) the index for writing.
    public static func open(_ layout: LibraryLayout) throws(LibraryError) -> LibraryIndex {
        let path = layout.indexFile.path
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)
            let database = try DatabaseQueue(path: path, configuration: configuration)
            try migrator.migrate(database)
            return LibraryIndex(database: database, path: path)
        } catch {
            throw .index(path: path, reason: "\(error)")
        }
    }

    /// Opens an existing index read-only; nil when the library has none yet.
    public static func openReadOnly(_ layout: LibraryLayout) throws(LibraryError) -> LibraryIndex? {
        let path = layout.indexFile.path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(30)
            let database = try DatabaseQueue(path: path, configuration: configuration)
            return LibraryIndex(database: database, path: path)
        } catch {
            throw .index(path: path, reason: "\(error)")
        }
    }

    private init(database: DatabaseQueue, path: String) {
        self.database = database
        self.path = path
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: FiledFile.databaseTableName) { table in
                table.primaryKey("path", .text)
                table.column("subject", .text).notNull()
                table.column("sha256", .text).notNull()
                table.column("source_sha256", .text)
                table.column("size", .integer).notNull()
                table.column("captured_at", .text)
                table.column("filed_at", .text).notNull()
            }
            try db.create(index: "filed_by_subject_digest", on: FiledFile.databaseTableName,
                          columns: ["subject", "sha256"])
            try db.create(index: "filed_by_subject_source_digest", on: FiledFile.databaseTableName,
                          columns: ["subject", "source_sha256"])
            try db.create(table: ImportedSource.databaseTableName) { table in
                table.column("path", .text).notNull()
                table.column("requested_subject", .text).notNull()
                table.column("size", .integer).notNull()
                table.column("mtime_ns", .integer).notNull()
                table.column("sha256", .text).notNull()
                table.column("subject", .text).notNull()
                table.column("filed_path", .text).notNull()
                table.primaryKey(["path", "requested_subject"])
            }
        }
        migrator.registerMigration("v2-records") { db in
            try db.create(table: RecordFileSummary.databaseTableName) { table in
                table.primaryKey("path", .text)
                table.column("subject", .text).notNull()
                table.column("year", .integer).notNull()
                table.column("count", .integer).notNull()
                table.column("sha256", .text).notNull()
            }
        }
        return migrator
    }

    /// The record of an earlier import of this very file, if its size and mtime are unchanged.
    public func unchangedSource(_ source: SourceFile, requestedSubject: Subject?) throws(LibraryError)
        -> ImportedSource?
    {
        try read { db in
            try ImportedSource
                .filter(Column("path") == source.path && Column("requested_subject") == (requestedSubject?.path ?? ""))
                .filter(Column("size") == source.size && Column("mtime_ns") == source.modificationTime)
                .fetchOne(db)
        }
    }

    /// A file of `subject` that came from a source with these bytes.
    public func filedFile(for subject: Subject, sourceDigest: ContentDigest) throws(LibraryError) -> FiledFile? {
        try read { db in
            try FiledFile.filter(Column("subject") == subject.path && Column("source_sha256") == sourceDigest.hex)
                .fetchOne(db)
        }
    }

    /// A file of `subject` with exactly these filed bytes.
    public func filedFile(for subject: Subject, digest: ContentDigest) throws(LibraryError) -> FiledFile? {
        try read { db in
            try FiledFile.filter(Column("subject") == subject.path && Column("sha256") == digest.hex).fetchOne(db)
        }
    }

    /// Records a filed file, the year files that changed, and the source they came from, in
    /// one transaction.
    public func record(_ filed: FiledFile?, recordFiles: [RecordFileSummary] = [], source: ImportedSource?)
        throws(LibraryError)
    {
        try write { db in
            try filed?.upsert(db)
            for summary in recordFiles { try summary.upsert(db) }
            try source?.upsert(db)
        }
    }

    /// Replaces what the index knows of filed files and record files (a rebuild from the folders).
    /// Source records whose filed file is gone are dropped; the rest stay valid.
    public func replaceFiledFiles(with files: [FiledFile], recordFiles: [RecordFileSummary] = []) throws(LibraryError) {
        try write { db in
            try FiledFile.deleteAll(db)
            for file in files { try file.insert(db) }
            try RecordFileSummary.deleteAll(db)
            for summary in recordFiles { try summary.insert(db) }
            try db.execute(sql: """
                DELETE FROM source WHERE filed_path NOT IN (SELECT path FROM filed UNION SELECT path FROM record_file)
                """)
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(LibraryError) -> T {
        do { return try database.read(body) } catch { throw .index(path: path, reason: "\(error)") }
    }

    private func write(_ body: (Database) throws -> Void) throws(LibraryError) {
        do { try database.write(body) } catch { throw .index(path: path, reason: "\(error)") }
    }
}
