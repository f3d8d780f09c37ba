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

    /// Opens (creating if needed) the index for writing, for the library with this identity: an
    /// index made for another library (copied in, or left by a library that was replaced) is
    /// refused with `LibraryError.indexOfAnotherLibrary`, never used; a new one, or one made
    /// before libraries had ids, takes this library's id.
    public static func open(_ layout: LibraryLayout, identity: LibraryIdentity) throws(LibraryError) -> LibraryIndex {
        let path = layout.indexFile.path
        let database: DatabaseQueue
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)
            database = try DatabaseQueue(path: path, configuration: configuration)
            try migrator(layout).migrate(database)
        } catch {
            throw .index(path: path, reason: reason(error))
        }
        let index = LibraryIndex(database: database, path: path)
        do {
            try index.claim(for: identity)
        } catch {
            index.close()
            throw error
        }
        return index
    }

    /// Takes the library's id into an index that has none; refuses one that holds another.
    private func claim(for identity: LibraryIdentity) throws(LibraryError) {
        switch try libraryID() {
        case identity.id?:
            return
        case let other?:
            throw .indexOfAnotherLibrary(path: path, indexID: other, libraryID: identity.id)
        case nil:
            try write { db in try db.execute(sql: "INSERT INTO library_identity (id) VALUES (?)", arguments: [identity.id]) }
        }
    }

    /// The id of the library this index was made for; nil for an index made before libraries had ids.
    public func libraryID() throws(LibraryError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT id FROM library_identity LIMIT 1") }
    }

    /// What went wrong, in SQLite's own words and without the SQL statement (GRDB's description
    /// quotes the statement, which tells a user nothing); a damaged file says how to mend it.
    static func reason(_ error: any Error) -> FailureCause {
        guard let database = error as? DatabaseError else { return .of(error) }
        let message = database.message ?? "SQLite error \(database.resultCode.rawValue)"
        if isDamage(error) {
            return .sqlite(database, message: "it is damaged (\(message)); run `dossier index rebuild` to move it aside and rebuild it from the folders")
        }
        return .sqlite(database, message: message)
    }

    /// Whether SQLite found the file is no database, or a damaged one.
    static func isDamage(_ error: any Error) -> Bool {
        guard let database = error as? DatabaseError else { return false }
        return [ResultCode.SQLITE_NOTADB, ResultCode.SQLITE_CORRUPT].contains(database.resultCode.primaryResultCode)
    }

    /// Moves the index aside (`index.sqlite.<why>-<time>`: `damaged`, `other-library`), never
    /// deleting it (it may be needed to find out what happened), so a new one can be built from
    /// the folders; its journal goes with it. Returns the new name.
    public static func moveIndexAside(_ layout: LibraryLayout, calling why: String) throws(LibraryError) -> String? {
        let path = layout.indexFile.path
        guard layout.files.isFile(path) else { return nil }
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        let aside = "\(path).\(why)-\(stamp)"
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

    /// Opens an existing index read-only; nil when the library has none yet. With `identity`, an
    /// index made for another library is refused. An index written by an earlier Dossier is read
    /// through an up-to-date copy in memory: a read must not change the file (a dry run writes
    /// nothing), and the queries expect today's tables.
    public static func openReadOnly(_ layout: LibraryLayout, identity: LibraryIdentity? = nil) throws(LibraryError)
        -> LibraryIndex?
    {
        let path = layout.indexFile.path
        guard layout.files.isFile(path) else { return nil }
        let index: LibraryIndex
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(30)
            let database = try DatabaseQueue(path: path, configuration: configuration)
            if try database.read({ try migrator(layout).hasCompletedMigrations($0) }) {
                index = LibraryIndex(database: database, path: path)
            } else {
                let copy = try DatabaseQueue()
                try database.backup(to: copy)
                try database.close()
                try migrator(layout).migrate(copy)
                index = LibraryIndex(database: copy, path: path)
            }
        } catch {
            throw .index(path: path, reason: reason(error))
        }
        if let identity, let other = try index.libraryID(), other != identity.id {
            index.close()
            throw .indexOfAnotherLibrary(path: path, indexID: other, libraryID: identity.id)
        }
        return index
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

    /// The index's migrations; `layout` is the library's, whose folders a migration may read.
    private static func migrator(_ layout: LibraryLayout) -> DatabaseMigrator {
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
        migrator.registerMigration("v4-identity-and-history") { db in
            try db.create(table: "library_identity") { table in
                table.primaryKey("id", .text)
            }
            try db.alter(table: ImportedSource.databaseTableName) { table in
                table.add(column: "departed_at", .text)
            }
            try db.alter(table: SourceYearFile.databaseTableName) { table in
                table.add(column: "route_subject", .text)
                table.add(column: "superseded", .boolean).notNull().defaults(to: false)
                table.add(column: "departed_at", .text)
            }
            try db.create(index: "source_year_file_by_kept", on: SourceYearFile.databaseTableName,
                          columns: ["kept_path", "year_file"])
            try db.create(table: StuckSource.databaseTableName) { table in
                table.primaryKey("path", .text)
                table.column("reason", .text).notNull()
                table.column("since", .text).notNull()
            }
            // Sources imported before their history was kept, as `IndexRebuilder` reads them off
            // the disk: a version whose bytes are still at its path is current; where the path
            // holds none (removed by `--move` or the daemon, or a new file there) they departed,
            // so no file there replaces their records. (A file on a drive not mounted now, or
            // edited since, counts as departed too: its next import adds instead of replacing,
            // which loses nothing.)
            let departed = ISO8601DateFormatter().string(from: Date())
            let digests = Dictionary(try Row.fetchAll(db, sql: "SELECT path, sha256 FROM kept_source").map {
                (($0["path"] as String), ($0["sha256"] as String))
            }, uniquingKeysWith: { first, _ in first })
            for path in try String.fetchAll(db, sql: "SELECT DISTINCT source_path FROM source_year_file") {
                let versions = Set(try String.fetchAll(db, sql: "SELECT kept_path FROM source_year_file WHERE source_path = ?",
                                                       arguments: [path]))
                if let current = IndexRebuilder.versionHeld(at: path, among: versions, digests: digests)?.keptPath {
                    try db.execute(sql: "UPDATE source_year_file SET superseded = 1 WHERE source_path = ? AND kept_path != ?",
                                   arguments: [path, current])
                } else {
                    try db.execute(sql: "UPDATE source_year_file SET departed_at = ? WHERE source_path = ?", arguments: [departed, path])
                }
            }
            for path in try String.fetchAll(db, sql: "SELECT DISTINCT path FROM source")
            where SourcePath.status(path, followingLinks: false) == nil {
                try db.execute(sql: "UPDATE source SET departed_at = ? WHERE path = ?", arguments: [departed, path])
            }
        }
        migrator.registerMigration("v5-content-identifiers") { db in
            try db.alter(table: FiledFile.databaseTableName) { table in
                table.add(column: "content_identifier", .text)
            }
            try db.create(index: "filed_by_content_identifier", on: FiledFile.databaseTableName,
                          columns: ["content_identifier"])
        }
        migrator.registerMigration("v6-filed-by-digest") { db in
            // A Live Photo's movie or a sidecar asks for its photo by its bytes, whatever its
            // subject (`filedFiles(sha256:)`): without this, a walk of every filed file each time.
            try db.create(index: "filed_by_digest", on: FiledFile.databaseTableName, columns: ["sha256"])
        }
        migrator.registerMigration("v7-originals") { db in
            // By path: one a content, but two runs keeping the same bytes at once (the same photo
            // for two subjects) each have their row, so neither copy goes unindexed.
            try db.create(table: KeptOriginal.databaseTableName) { table in
                table.primaryKey("path", .text)
                table.column("sha256", .text).notNull()
                table.column("size", .integer).notNull()
            }
            try db.create(index: "original_by_digest", on: KeptOriginal.databaseTableName, columns: ["sha256"])
        }
        migrator.registerMigration("v8-renditions") { db in
            // A table of their own: a rendition is no photo (no source, no capture date, never a
            // duplicate of anything), and verify checks it against the photo it was made from.
            try db.create(table: FiledRendition.databaseTableName) { table in
                table.primaryKey("path", .text)
                table.column("photo_path", .text).notNull()
                table.column("sha256", .text).notNull()
                table.column("size", .integer).notNull()
                table.column("filed_at", .text).notNull()
            }
            try db.create(index: "rendition_by_photo", on: FiledRendition.databaseTableName, columns: ["photo_path"])
            // The renditions an earlier Dossier filed beside its photos were never indexed: they
            // are taken as they are now, as `index rebuild` would take them (nothing else tells
            // what was put there), so the first verify after the upgrade does not call each one
            // unindexed.
            let photos = try FiledFile.fetchAll(db)
            let now = ISO8601DateFormatter().string(from: Date())
            for rendition in try IndexRebuilder(layout: layout).renditions(beside: photos, filedAt: now) {
                try rendition.insert(db, onConflict: .ignore)
            }
        }
        migrator.registerMigration("v9-copies-to-mend") { db in
            // If not there already: builds made while it was written named it v8, before renditions.
            try db.create(table: CopyToMend.databaseTableName, options: .ifNotExists) { table in
                table.primaryKey("path", .text)
                table.column("subject", .text).notNull()
                table.column("good_copy", .text).notNull()
                table.column("found_at", .text).notNull()
            }
        }
        migrator.registerMigration("v10-removed-items") { db in
            // What `dossier remove` and `dossier move` took out of a subject's folder, so no
            // import files it there again; also their journal (`state`). No old row to fill.
            try db.create(table: RemovedItem.databaseTableName) { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("command", .text).notNull()
                table.column("role", .text).notNull()
                table.column("path", .text).notNull()
                table.column("subject", .text).notNull()
                table.column("sha256", .text).notNull()
                table.column("source_sha256", .text)
                table.column("bytes_at", .text)
                table.column("at", .text).notNull()
                table.column("state", .text).notNull()
            }
            try db.create(index: "removed_by_subject_source", on: RemovedItem.databaseTableName, columns: ["subject", "source_sha256"])
            try db.create(index: "removed_by_subject_digest", on: RemovedItem.databaseTableName, columns: ["subject", "sha256"])
            try db.create(index: "removed_by_state", on: RemovedItem.databaseTableName, columns: ["state"])
        }
        migrator.registerMigration("v11-source-status") { db in
            // A source's whole status, so one settled as unchanged is the very file read, untouched
            // since: a same-size edit whose modification time was put back moves its change time.
            // Rows from before have none: their sources are read and hashed once, and kept then.
            try db.alter(table: ImportedSource.databaseTableName) { table in
                table.add(column: "device", .integer)
                table.add(column: "inode", .integer)
                table.add(column: "ctime_ns", .integer)
            }
            // And the file each version of a text source was read from, so a file found at its path
            // is known for that file edited in place, or not (`SourceContinuity`); older rows
            // have none, and are judged by their lines.
            try db.alter(table: SourceYearFile.databaseTableName) { table in
                table.add(column: "device", .integer)
                table.add(column: "inode", .integer)
                table.add(column: "btime_ns", .integer)
            }
        }
        migrator.registerMigration("v12-source-status-taken-at") { db in
            // When a source's status was taken: one whose change time was too close to it (an
            // edit later in the same second keeps it, on a file system of whole seconds) is hashed
            // before it is settled by it. Rows from before have none, and are hashed once too.
            try db.alter(table: ImportedSource.databaseTableName) { table in
                table.add(column: "status_at_ns", .integer)
            }
        }
        return migrator
    }

    /// Everything the index says the library holds, as one moment of it.
    public func contents() throws(LibraryError) -> LibraryContents {
        try read { db in
            LibraryContents(filed: try FiledFile.order(Column("path")).fetchAll(db),
                            recordFiles: try RecordFileSummary.order(Column("path")).fetchAll(db),
                            keptSources: try KeptSource.order(Column("path")).fetchAll(db),
                            originals: try KeptOriginal.order(Column("path")).fetchAll(db),
                            sources: try ImportedSource.order(Column("path")).fetchAll(db),
                            renditions: try FiledRendition.order(Column("path")).fetchAll(db))
        }
    }

    /// The originals a photo source with these bytes is kept as (one, unless two runs kept it at
    /// once, or a damaged one was kept again), by path.
    public func originals(sha256: String) throws(LibraryError) -> [KeptOriginal] {
        try read { db in try KeptOriginal.filter(Column("sha256") == sha256).order(Column("path")).fetchAll(db) }
    }

    /// The damaged or missing photos `verify` last found with a good copy, by path.
    public func copiesToMend() throws(LibraryError) -> [CopyToMend] {
        try read { db in try CopyToMend.order(Column("path")).fetchAll(db) }
    }

    /// Records what `verify` found to mend. A full check knows all there is to mend, so its list
    /// replaces the one before (`replacingAll`); a quick one may miss what a full one found, so it
    /// only adds.
    public func record(copiesToMend copies: [CopyToMend], replacingAll: Bool) throws(LibraryError) {
        try write { db in
            if replacingAll { try CopyToMend.deleteAll(db) }
            for copy in copies { try copy.upsert(db) }
        }
    }

    /// Forgets copies that are mended, or that can no longer be.
    public func forgetCopiesToMend(_ paths: [String]) throws(LibraryError) {
        try write { db in _ = try CopyToMend.deleteAll(db, keys: paths) }
    }

    // MARK: Items taken out (`dossier remove`, `dossier move`)

    /// The latest file `dossier remove` or `dossier move` took out of `subject`'s folder that came
    /// from a source with `sourceDigest`, or held exactly `digest`; nil when none did. A command
    /// stopped before its index changed (`planned`) took nothing out.
    public func removal(of subject: Subject, sourceDigest: ContentDigest?, digest: ContentDigest?) throws(LibraryError)
        -> RemovedItem?
    {
        try lookup { db in
            try RemovedItem.fetchOne(db.cachedStatement(sql: """
                SELECT * FROM removed_item WHERE subject = ? AND role = 'filed' AND state != 'planned'
                    AND (source_sha256 = ? OR sha256 = ?) ORDER BY id DESC LIMIT 1
                """), arguments: [subject.path, sourceDigest?.hex, digest?.hex])
        }
    }

    /// The filed files whose paths start with `prefix` (a photo's name without its extension:
    /// the files filed beside it share it), by path.
    public func filedFiles(withPathPrefix prefix: String) throws(LibraryError) -> [FiledFile] {
        try read { db in
            try FiledFile.filter(Column("path") >= prefix && Column("path") < prefix + "\u{10FFFF}").order(Column("path")).fetchAll(db)
        }
    }

    /// Every filed file, in any subject, that came from a source with these bytes, by path.
    public func filedFiles(fromSourceWithDigest hex: String) throws(LibraryError) -> [FiledFile] {
        try read { db in try FiledFile.filter(Column("source_sha256") == hex).order(Column("path")).fetchAll(db) }
    }

    /// Writes the journal of a removal or move before any name is touched (`planned`); returns the
    /// rows with their ids.
    public func plan(_ rows: [RemovedItem]) throws(LibraryError) -> [RemovedItem] {
        var planned = rows
        try write { db in
            for index in planned.indices { try planned[index].insert(db) }
        }
        return planned
    }

    /// What a removal or move changes in what the index says is filed, in one transaction: the
    /// files taken out (`rows`, by their role) leave the filed files, renditions, originals and
    /// the notes of `verify`; those sources filed as them now name where they went (`move`:
    /// `newPaths`, old path to new) or are forgotten (`remove`); what they became (`filed`,
    /// `renditions`, `originals`) is recorded; a file moved back to a subject it once left is no
    /// more a removal there; and the rows become `recorded`.
    public func takeOut(_ rows: [RemovedItem], newPaths: [String: String], toSubject: String?, filed: [FiledFile],
                        renditions: [FiledRendition], originals: [KeptOriginal]) throws(LibraryError) {
        try write { db in
            for row in rows {
                switch row.role {
                case .filed:
                    try FiledFile.deleteOne(db, key: row.path)
                    try FiledRendition.filter(Column("photo_path") == row.path).deleteAll(db)
                    if let newPath = newPaths[row.path], let toSubject {
                        try db.execute(sql: "UPDATE source SET filed_path = ?, subject = ? WHERE filed_path = ?",
                                       arguments: [newPath, toSubject, row.path])
                    } else {
                        try db.execute(sql: "DELETE FROM source WHERE filed_path = ?", arguments: [row.path])
                    }
                case .rendition:
                    try FiledRendition.deleteOne(db, key: row.path)
                case .original:
                    try KeptOriginal.deleteOne(db, key: row.path)
                }
                try CopyToMend.deleteOne(db, key: row.path)
            }
            for file in filed { try file.upsert(db) }
            for rendition in renditions { try rendition.upsert(db) }
            for original in originals { try original.upsert(db) }
            if let toSubject {
                try RemovedItem.filter(Column("subject") == toSubject && filed.map(\.sha256).contains(Column("sha256")))
                    .filter(Column("state") == RemovedItem.State.done.rawValue).deleteAll(db)
            }
            try RemovedItem.filter(rows.compactMap(\.id).contains(Column("id")))
                .updateAll(db, Column("state").set(to: RemovedItem.State.recorded.rawValue))
        }
    }

    /// The rows of removals and moves not finished: a command stopped part way.
    public func unfinishedRemovals() throws(LibraryError) -> [RemovedItem] {
        try read { db in try RemovedItem.filter(Column("state") != RemovedItem.State.done.rawValue).order(Column("id")).fetchAll(db) }
    }

    /// Marks rows done (their old names gone).
    public func finishRemovals(_ ids: [Int64]) throws(LibraryError) {
        try write { db in
            try RemovedItem.filter(ids.contains(Column("id"))).updateAll(db, Column("state").set(to: RemovedItem.State.done.rawValue))
        }
    }

    /// Forgets planned rows whose command is undone: it took nothing out.
    public func forgetPlannedRemovals(_ ids: [Int64]) throws(LibraryError) {
        try write { db in
            try RemovedItem.filter(ids.contains(Column("id")) && Column("state") == RemovedItem.State.planned.rawValue).deleteAll(db)
        }
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

    /// The versions of the file at `path` that a new version of it (kept as `kept`) replaces:
    /// its lineage (the current version and those it superseded, none that departed), a row for
    /// each year file each version gave records to.
    public func lineage(ofSource path: String, otherThan kept: String) throws(LibraryError) -> [SourceYearFile] {
        try read { db in
            try SourceYearFile
                .filter(Column("source_path") == path && Column("kept_path") != kept && Column("departed_at") == nil)
                .order(Column("kept_path"), Column("year_file"))
                .fetchAll(db)
        }
    }

    /// Another source still at its path whose current version holds exactly the bytes kept as
    /// `kept`, routed alike, and gave records to `yearFile`: it gives the same records there, so
    /// they are its to keep when the source that first gave them no longer does.
    public func otherCurrentSource(keptAs kept: String, yearFile: String, routeSubject: String?,
                                   otherThan path: String) throws(LibraryError) -> String? {
        try read { db in
            try String.fetchOne(db, sql: """
                SELECT source_path FROM source_year_file
                WHERE kept_path = ? AND year_file = ? AND route_subject IS ? AND source_path != ?
                  AND superseded = 0 AND departed_at IS NULL
                ORDER BY source_path LIMIT 1
                """, arguments: [kept, yearFile, routeSubject, path])
        }
    }

    /// The rows of another source whose version with exactly the bytes kept as `kept` gave
    /// records routed alike and still stands for them (current, or departed from its path: either
    /// way its records are filed); empty when there is none. A superseded version does not
    /// count, since its records may have been replaced.
    public func sourceStandingFor(keptAs kept: String, routeSubject: String?,
                                  otherThan path: String) throws(LibraryError) -> [SourceYearFile] {
        try read { db in
            guard let standing = try String.fetchOne(db, sql: """
                SELECT source_path FROM source_year_file
                WHERE kept_path = ? AND route_subject IS ? AND source_path != ? AND superseded = 0
                ORDER BY source_path LIMIT 1
                """, arguments: [kept, routeSubject, path])
            else { return [] }
            return try SourceYearFile.filter(Column("source_path") == standing && Column("kept_path") == kept)
                .order(Column("year_file")).fetchAll(db)
        }
    }

    /// Where one version of a source stands (superseded, departed), as its rows say; nil when
    /// the index has no row of it.
    /// Every year file one version of a source (its path and kept copy) gave records to.
    /// The year file of records at `path` (relative to the root), as Dossier last wrote it.
    public func recordFile(at path: String) throws(LibraryError) -> RecordFileSummary? {
        try read { db in try RecordFileSummary.fetchOne(db, key: path) }
    }

    public func yearFiles(ofSource path: String, kept: String) throws(LibraryError) -> [SourceYearFile] {
        try read { db in
            try SourceYearFile.filter(Column("source_path") == path && Column("kept_path") == kept)
                .order(Column("year_file")).fetchAll(db)
        }
    }

    public func version(ofSource path: String, kept: String) throws(LibraryError) -> SourceYearFile? {
        try read { db in
            try SourceYearFile.filter(Column("source_path") == path && Column("kept_path") == kept).fetchOne(db)
        }
    }

    /// Records that a file is about to leave its path (`SourceDeparture`): its `source` rows and
    /// its versions departed. Written before the file is removed, so a kill in between never
    /// leaves a new file at that path taken for an edit of it.
    public func record(_ departure: SourceDeparture) throws(LibraryError) {
        try record([departure])
    }

    /// Records several departures in one commit.
    public func record(_ departures: [SourceDeparture]) throws(LibraryError) {
        try write { db in
            for departure in departures { try LibraryIndex.mark(departure, in: db) }
        }
    }

    /// Records as departed every source under `folder` the index holds as still at its path
    /// whose file is gone: the daemon's inbox at its start, for files deleted while it was not
    /// running. Returns how many paths departed.
    @discardableResult
    public func recordDeparturesOfFilesGone(under folder: String) throws(LibraryError) -> Int {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let paths: [String] = try read { db in
            let sources = try String.fetchAll(db, sql: "SELECT DISTINCT path FROM source WHERE departed_at IS NULL")
            let versions = try String.fetchAll(db, sql: "SELECT DISTINCT source_path FROM source_year_file WHERE departed_at IS NULL")
            return Array(Set(sources + versions)).filter { $0.hasPrefix(prefix) }
        }
        let gone = paths.filter { SourcePath.status($0, followingLinks: false) == nil }
        let now = ISO8601DateFormatter().string(from: Date())
        try record(gone.sorted().map { SourceDeparture(path: $0, at: now) })
        return gone.count
    }

    /// Takes back a departure when the file could not be removed after all: it is still there.
    public func undo(_ departure: SourceDeparture) throws(LibraryError) {
        try write { db in
            try db.execute(sql: "UPDATE source SET departed_at = NULL WHERE path = ? AND departed_at = ?",
                           arguments: [departure.path, departure.at])
            try db.execute(sql: "UPDATE source_year_file SET departed_at = NULL WHERE source_path = ? AND departed_at = ?",
                           arguments: [departure.path, departure.at])
        }
    }

    private static func mark(_ departure: SourceDeparture, in db: Database) throws {
        try db.execute(sql: "UPDATE source SET departed_at = ? WHERE path = ? AND departed_at IS NULL",
                       arguments: [departure.at, departure.path])
        try db.execute(sql: "UPDATE source_year_file SET departed_at = ? WHERE source_path = ? AND departed_at IS NULL",
                       arguments: [departure.at, departure.path])
    }

    /// The inbox files the daemon could neither file nor quarantine, oldest first.
    public func stuckSources() throws(LibraryError) -> [StuckSource] {
        try read { db in try StuckSource.order(Column("since"), Column("path")).fetchAll(db) }
    }

    /// Records files found stuck (keeping when each was first found), and forgets those that left.
    public func updateStuckSources(_ stuck: [StuckSource], forgetting left: [String]) throws(LibraryError) {
        guard !stuck.isEmpty || !left.isEmpty else { return }
        try write { db in
            for path in left { try StuckSource.deleteOne(db, key: path) }
            for var source in stuck {
                if let earlier = try StuckSource.fetchOne(db, key: source.path) { source.since = earlier.since }
                try source.upsert(db)
            }
        }
    }

    /// What an earlier import of the source at `path` left: its row, if any.
    public func importedSources(at path: String) throws(LibraryError) -> [ImportedSource] {
        try lookup { db in try ImportedSource.fetchAll(db.cachedStatement(sql: "SELECT * FROM source WHERE path = ?"), arguments: [path]) }
    }

    /// `importedSources(at:)` of each path, in one read: a still asks after its movie and raws
    /// under a score of names (`LivePhotoReunion`), and a read each was most of the index's time.
    /// The rows come grouped in the order of `paths`, each path's as `importedSources(at:)` gives them.
    public func importedSources(atAnyOf paths: [String]) throws(LibraryError) -> [ImportedSource] {
        guard !paths.isEmpty else { return [] }
        // As many placeholders as names: a still asks under as many names each time, so the
        // statement is prepared once a run.
        let sql = "SELECT * FROM source WHERE path IN (" + Array(repeating: "?", count: paths.count).joined(separator: ",")
            + ") ORDER BY path, requested_subject"
        let rows = try lookup { db in
            try ImportedSource.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(paths))
        }
        let byPath = Dictionary(grouping: rows, by: \.path)
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }.flatMap { byPath[$0] ?? [] }
    }

    // The lookups each file filed makes (this one, the filed files by digest, the sources by
    // path) are SQL prepared once a run (`cachedStatement`): the query interface writes,
    // authorizes and prepares its statement anew at each call, which cost more than the lookup.

    /// The record of an earlier import of this very file, if its whole status is unchanged: size,
    /// modification time, device, inode and change time. A row without a status (from before it
    /// was kept, or after `index rebuild`) matches nothing, nor does a source whose status is not known.
    public func unchangedSource(_ source: SourceFile, requestedSubject: Subject?) throws(LibraryError)
        -> ImportedSource?
    {
        guard let identity = source.identity, let changeTime = source.changeTime else { return nil }
        return try lookup { db in
            try ImportedSource.fetchOne(db.cachedStatement(sql: """
                SELECT * FROM source WHERE path = ? AND requested_subject = ? AND size = ? AND mtime_ns = ?
                    AND device = ? AND inode = ? AND ctime_ns = ? AND departed_at IS NULL LIMIT 1
                """), arguments: [source.path, requestedSubject?.path ?? "", source.size, source.modificationTime,
                                  Int64(bitPattern: identity.device), Int64(bitPattern: identity.inode), changeTime])
        }
    }

    /// A file of `subject` that came from a source with these bytes.
    public func filedFile(for subject: Subject, sourceDigest: ContentDigest) throws(LibraryError) -> FiledFile? {
        try lookup { db in
            try FiledFile.fetchOne(db.cachedStatement(sql: "SELECT * FROM filed WHERE subject = ? AND source_sha256 = ? LIMIT 1"),
                                   arguments: [subject.path, sourceDigest.hex])
        }
    }

    /// Every file filed for the subject from a source with these bytes (a source may give
    /// several: two photos in it, or one a transform fanned out to), in path order.
    public func filedFiles(for subject: Subject, sourceDigest: ContentDigest) throws(LibraryError) -> [FiledFile] {
        try lookup { db in
            try FiledFile.fetchAll(db.cachedStatement(sql: "SELECT * FROM filed WHERE subject = ? AND source_sha256 = ? ORDER BY path"),
                                   arguments: [subject.path, sourceDigest.hex])
        }
    }

    /// The filed photo at this path (relative to the root), if the index knows it.
    public func filedFile(at path: String) throws(LibraryError) -> FiledFile? {
        try read { db in try FiledFile.fetchOne(db, key: path) }
    }

    /// The renditions filed beside the photo at `path` (relative to the root), by path.
    public func renditions(ofPhoto path: String) throws(LibraryError) -> [FiledRendition] {
        try read { db in try FiledRendition.filter(Column("photo_path") == path).order(Column("path")).fetchAll(db) }
    }

    /// The rendition filed at `path`, if the index knows one there.
    public func rendition(at path: String) throws(LibraryError) -> FiledRendition? {
        try read { db in try FiledRendition.fetchOne(db, key: path) }
    }

    /// The files filed with Apple's content identifier `identifier` (a Live Photo's still and
    /// movie), by path.
    public func filedFiles(contentIdentifier identifier: String) throws(LibraryError) -> [FiledFile] {
        try read { db in
            try FiledFile.filter(Column("content_identifier") == identifier).order(Column("path")).fetchAll(db)
        }
    }

    /// The files with exactly these filed bytes, in any subject, by path.
    public func filedFiles(sha256 digest: ContentDigest) throws(LibraryError) -> [FiledFile] {
        try read { db in try FiledFile.filter(Column("sha256") == digest.hex).order(Column("path")).fetchAll(db) }
    }

    /// A file of `subject` with exactly these filed bytes.
    public func filedFile(for subject: Subject, digest: ContentDigest) throws(LibraryError) -> FiledFile? {
        try lookup { db in
            try FiledFile.fetchOne(db.cachedStatement(sql: "SELECT * FROM filed WHERE subject = ? AND sha256 = ? LIMIT 1"),
                                   arguments: [subject.path, digest.hex])
        }
    }

    /// Records a filed file, the year files that changed, and the source they came from, in
    /// one transaction.
    /// With `ledger`, the source's problems replace those its earlier imports left (from this
    /// path, or from the same kept bytes); one found again keeps its id (`ProblemContinuity`). `yearFiles` are the source version's rows as they now
    /// stand; the versions kept as `superseded` (of the same source path) were replaced by it.
    /// With `departure`, the source is about to be removed: recorded in the same commit.
    public func record(_ filed: [FiledFile], renditions: [FiledRendition] = [], recordFiles: [RecordFileSummary] = [],
                       source: ImportedSource?, kept: KeptSource? = nil, originals: [KeptOriginal] = [],
                       ledger: SourceLedger? = nil, yearFiles: [SourceYearFile] = [], superseded: [String] = [],
                       departure: SourceDeparture? = nil) throws(LibraryError)
    {
        try write { db in
            for original in originals { try original.upsert(db) }
            try LibraryIndex.record(renditions, in: db)
            if let sourcePath = yearFiles.first?.sourcePath ?? ledger?.sourcePath, !superseded.isEmpty {
                try SourceYearFile
                    .filter(Column("source_path") == sourcePath && superseded.contains(Column("kept_path")))
                    .filter(Column("departed_at") == nil)
                    .updateAll(db, Column("superseded").set(to: true))
            }
            for yearFile in yearFiles { try yearFile.upsert(db) }
            for file in filed { try file.upsert(db) }
            // Filed again: what `verify` noted to mend at its name is mended.
            try CopyToMend.deleteAll(db, keys: filed.map(\.path))
            for summary in recordFiles { try summary.upsert(db) }
            try source?.upsert(db)
            try kept?.upsert(db)
            if let ledger {
                var earlier = LedgerProblem.filter(Column("source_path") == ledger.sourcePath)
                if let keptPath = ledger.keptPath {
                    earlier = LedgerProblem.filter(Column("source_path") == ledger.sourcePath || Column("kept_path") == keptPath)
                }
                // A problem still there keeps its id (a person may be about to dismiss it by that
                // id); the solved ones go, the new ones get ids of their own.
                let found = ProblemContinuity.carry(from: try earlier.fetchAll(db), to: ledger.problems)
                try earlier.deleteAll(db)
                for var problem in found { try problem.insert(db) }
            }
            if let departure { try LibraryIndex.mark(departure, in: db) }
        }
    }

    /// Records what several photo sources gave, in one transaction: their filed files and the
    /// sources they came from (`IndexBatch`).
    public func record(photos: [PhotoRows]) throws(LibraryError) {
        try write { db in
            for photo in photos {
                for file in photo.filed { try file.upsert(db) }
                try CopyToMend.deleteAll(db, keys: photo.filed.map(\.path))
                try LibraryIndex.record(photo.renditions, in: db)
                for original in photo.originals { try original.upsert(db) }
                try photo.source?.upsert(db)
            }
        }
    }

    /// A photo's rendition, made again (other bytes, perhaps another format), stands for it: the
    /// rows of the renditions it had under other names go.
    private static func record(_ renditions: [FiledRendition], in db: Database) throws {
        for rendition in renditions {
            try FiledRendition.filter(Column("photo_path") == rendition.photoPath && Column("path") != rendition.path).deleteAll(db)
            try rendition.upsert(db)
        }
    }

    /// A filed file now lives at `newPath` (a Live Photo's movie brought beside its still): its row
    /// and the rows of the sources filed as it follow, in one transaction. A raw brought beside its
    /// JPEG leaves its rendition behind, to be removed (`LivePhotoReunion`): its row goes now.
    public func moveFiledFile(from oldPath: String, to newPath: String) throws(LibraryError) {
        try write { db in
            try db.execute(sql: "UPDATE filed SET path = ? WHERE path = ?", arguments: [newPath, oldPath])
            try FiledRendition.filter(Column("photo_path") == oldPath).deleteAll(db)
            try db.execute(sql: "UPDATE source SET filed_path = ? WHERE filed_path = ?", arguments: [newPath, oldPath])
        }
    }

    /// Replaces what the index knows of filed files, their renditions and record files (a rebuild
    /// from the folders), and learns the removals `removed/` shows that it does not know.
    /// Source records whose filed file is gone are dropped, and those of `damaged` files (so the
    /// next import of such a source reads it, and files its bytes again); the rest stay valid.
    public func replaceFiledFiles(with files: [FiledFile], renditions: [FiledRendition] = [],
                                  recordFiles: [RecordFileSummary] = [],
                                  keptSources: [KeptSource] = [], originals: [KeptOriginal] = [],
                                  sourceYearFiles: [SourceYearFile] = [], damaged: [String] = [],
                                  removed: [RemovedItem] = []) throws(LibraryError) {
        try write { db in
            // What `removed/` holds that the index does not know as removed (it was lost).
            for var item in removed where try RemovedItem.filter(Column("path") == item.path && Column("sha256") == item.sha256)
                .fetchCount(db) == 0 {
                try item.insert(db)
            }
            try ImportedSource.filter(damaged.contains(Column("filed_path"))).deleteAll(db)
            // What the folders show says nothing of the sources: each is read and hashed at its
            // next import, and its status kept again then.
            try db.execute(sql: "UPDATE source SET device = NULL, inode = NULL, ctime_ns = NULL, status_at_ns = NULL")
            try FiledFile.deleteAll(db)
            for file in files { try file.insert(db) }
            try FiledRendition.deleteAll(db)
            for rendition in renditions { try rendition.insert(db) }
            try RecordFileSummary.deleteAll(db)
            for summary in recordFiles { try summary.insert(db) }
            try KeptOriginal.deleteAll(db)
            for original in originals { try original.insert(db) }
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

    /// A read of one SELECT statement: SQLite reads a lone statement as one moment of the
    /// database by itself, so the transaction and the read-only pragmas `read` puts around its
    /// body (four statements more) are left out. Never for a write, nor for several statements.
    private func lookup<T>(_ body: (Database) throws -> T) throws(LibraryError) -> T {
        do { return try database.unsafeRead(body) } catch { throw .index(path: path, reason: LibraryIndex.reason(error)) }
    }

    private func write(_ body: (Database) throws -> Void) throws(LibraryError) {
        do { try database.write(body) } catch { throw .index(path: path, reason: LibraryIndex.reason(error)) }
    }
}
