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
            throw .index(path: path, reason: reason(error))
        }
    }

    /// What went wrong, in SQLite's own words and without the SQL statement (GRDB's description
    /// quotes the statement, which tells a user nothing); a damaged file says how to mend it.
    static func reason(_ error: any Error) -> String {
        guard let database = error as? DatabaseError else { return "\(error)" }
        let message = database.message ?? "SQLite error \(database.resultCode.rawValue)"
        if isDamage(error) {
            return "it is damaged (\(message)); run `dossier index rebuild` to move it aside and rebuild it from the folders"
        }
        return message
    }

    /// Whether SQLite found the file is no database, or a damaged one.
    static func isDamage(_ error: any Error) -> Bool {
        guard let database = error as? DatabaseError else { return false }
        return [ResultCode.SQLITE_NOTADB, ResultCode.SQLITE_CORRUPT].contains(database.resultCode.primaryResultCode)
    }

    /// Moves a damaged index aside (`index.sqlite.damaged-<time>`, never deleted: it may be
    /// needed to find out what happened) so a new one can be built from the folders; its journal
    /// goes with it. Returns the new name.
    public static func moveDamagedIndexAside(_ layout: LibraryLayout) throws(LibraryError) -> String? {
        let path = layout.indexFile.path
        guard layout.files.isFile(path) else { return nil }
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        let aside = "\(path).damaged-\(stamp)"
        try layout.files.rename(path, replacing: aside)
        if layout.files.isFile(path + "-journal") { try layout.files.rename(path + "-journal", replacing: aside + "-journal") }
        return aside
    }

    /// Whether the index at the layout opens and reads as a database; false for a damaged one.
    public static func isDamaged(_ layout: LibraryLayout) -> Bool {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let database = try DatabaseQueue(path: layout.indexFile.path, configuration: configuration)
            try database.read { db in _ = try db.tableExists(FiledFile.databaseTableName); try db.execute(sql: "PRAGMA quick_check") }
            return false
        } catch {
            return isDamage(error)
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
            throw .index(path: path, reason: reason(error))
        }
    }

    private init(database: DatabaseQueue, path: String) {
        self.database = database
        self.path = path
    }

    /// Closes the database now rather than when the last reference goes: a daemon's session
    /// ends with its batch, and the next `dossier import` must find the index closed.
    public func close() {
        try? database.close()
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
        migrator.registerMigration("v3-kept-sources-and-problems") { db in
            try db.create(table: KeptSource.databaseTableName) { table in
                table.primaryKey("sha256", .text)
                table.column("path", .text).notNull()
                table.column("size", .integer).notNull()
            }
            try db.create(table: LedgerProblem.databaseTableName) { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("source_path", .text).notNull()
                table.column("kept_path", .text)
                table.column("line", .integer)
                table.column("text", .text)
                table.column("reason", .text).notNull()
                table.column("found_at", .text).notNull()
                table.column("route_subject", .text)
            }
            try db.create(index: "problem_by_source", on: LedgerProblem.databaseTableName, columns: ["source_path"])
            try db.create(index: "problem_by_kept", on: LedgerProblem.databaseTableName, columns: ["kept_path"])
            try db.create(table: SourceYearFile.databaseTableName) { table in
                table.column("source_path", .text).notNull()
                table.column("kept_path", .text).notNull()
                table.column("year_file", .text).notNull()
                table.primaryKey(["source_path", "kept_path", "year_file"])
            }
        }
        return migrator
    }

    /// The kept copy of a source with these bytes, if the library has one.
    public func keptSource(sha256: String) throws(LibraryError) -> KeptSource? {
        try read { db in try KeptSource.fetchOne(db, key: sha256) }
    }

    /// The problems ledger, oldest first.
    public func problems() throws(LibraryError) -> [LedgerProblem] {
        try read { db in try LedgerProblem.order(Column("id")).fetchAll(db) }
    }

    /// Drops one problem from the ledger; false when there is none with that id.
    public func dismissProblem(id: Int64) throws(LibraryError) -> Bool {
        var removed = false
        try write { db in removed = try LedgerProblem.deleteOne(db, key: id) }
        return removed
    }

    /// The year files that earlier versions of the source at `path` (kept copies other than
    /// `kept`) gave records to, by kept copy.
    public func earlierVersions(ofSource path: String, otherThan kept: String) throws(LibraryError) -> [String: [String]] {
        try read { db in
            let rows = try SourceYearFile.filter(Column("source_path") == path && Column("kept_path") != kept).fetchAll(db)
            return Dictionary(grouping: rows, by: \.keptPath).mapValues { $0.map(\.yearFile).sorted() }
        }
    }

    /// What an earlier import of the source at `path` left: its row, if any.
    public func importedSources(at path: String) throws(LibraryError) -> [ImportedSource] {
        try read { db in try ImportedSource.filter(Column("path") == path).fetchAll(db) }
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

    /// The filed photo at this path (relative to the root), if the index knows it.
    public func filedFile(at path: String) throws(LibraryError) -> FiledFile? {
        try read { db in try FiledFile.fetchOne(db, key: path) }
    }

    /// A file of `subject` with exactly these filed bytes.
    public func filedFile(for subject: Subject, digest: ContentDigest) throws(LibraryError) -> FiledFile? {
        try read { db in
            try FiledFile.filter(Column("subject") == subject.path && Column("sha256") == digest.hex).fetchOne(db)
        }
    }

    /// Records a filed file, the year files that changed, and the source they came from, in
    /// one transaction.
    /// With `ledger`, the source's problems replace those its earlier imports left (from this
    /// path, or from the same kept bytes).
    public func record(_ filed: FiledFile?, recordFiles: [RecordFileSummary] = [], source: ImportedSource?,
                       kept: KeptSource? = nil, ledger: SourceLedger? = nil, yearFiles: [SourceYearFile] = [],
                       replacedVersions: [String] = []) throws(LibraryError)
    {
        try write { db in
            if let sourcePath = yearFiles.first?.sourcePath ?? ledger?.sourcePath, !replacedVersions.isEmpty {
                try SourceYearFile.filter(Column("source_path") == sourcePath && replacedVersions.contains(Column("kept_path")))
                    .deleteAll(db)
            }
            for yearFile in yearFiles { try yearFile.upsert(db) }
            try filed?.upsert(db)
            for summary in recordFiles { try summary.upsert(db) }
            try source?.upsert(db)
            try kept?.upsert(db)
            if let ledger {
                try LedgerProblem.filter(Column("source_path") == ledger.sourcePath).deleteAll(db)
                if let keptPath = ledger.keptPath {
                    try LedgerProblem.filter(Column("kept_path") == keptPath).deleteAll(db)
                }
                for var problem in ledger.problems { try problem.insert(db) }
            }
        }
    }

    /// A filed file now lives at `newPath` (a Live Photo's movie brought beside its still): its row
    /// and the rows of the sources filed as it follow, in one transaction.
    public func moveFiledFile(from oldPath: String, to newPath: String) throws(LibraryError) {
        try write { db in
            try db.execute(sql: "UPDATE filed SET path = ? WHERE path = ?", arguments: [newPath, oldPath])
            try db.execute(sql: "UPDATE source SET filed_path = ? WHERE filed_path = ?", arguments: [newPath, oldPath])
        }
    }

    /// Replaces what the index knows of filed files and record files (a rebuild from the folders).
    /// Source records whose filed file is gone are dropped; the rest stay valid.
    public func replaceFiledFiles(with files: [FiledFile], recordFiles: [RecordFileSummary] = [],
                                  keptSources: [KeptSource] = [], sourceYearFiles: [SourceYearFile] = []) throws(LibraryError) {
        try write { db in
            try FiledFile.deleteAll(db)
            for file in files { try file.insert(db) }
            try RecordFileSummary.deleteAll(db)
            for summary in recordFiles { try summary.insert(db) }
            try KeptSource.deleteAll(db)
            // Two names may hold the same bytes (kept before the index knew the first): one row.
            for kept in keptSources { try kept.insert(db, onConflict: .ignore) }
            try SourceYearFile.deleteAll(db)
            for use in sourceYearFiles { try use.insert(db) }
            try db.execute(sql: """
                DELETE FROM source WHERE filed_path NOT IN
                    (SELECT path FROM filed UNION SELECT path FROM record_file UNION SELECT path FROM kept_source)
                """)
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(LibraryError) -> T {
        do { return try database.read(body) } catch { throw .index(path: path, reason: LibraryIndex.reason(error)) }
    }

    private func write(_ body: (Database) throws -> Void) throws(LibraryError) {
        do { try database.write(body) } catch { throw .index(path: path, reason: LibraryIndex.reason(error)) }
    }
}
