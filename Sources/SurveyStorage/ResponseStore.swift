public import Foundation
public import TwoWayBinding
import FormEngine
import GRDB
import Synchronization

/// The submitted responses, in an SQLite database.
///
/// Every write is a transaction, synced to disk before it is confirmed
/// (`synchronous = FULL`), so a response confirmed as stored survives a power
/// cut. The data folder is 0700
/// and the database's files 0600. A database that SQLite cannot read is moved
/// aside, never overwritten, and a new one is started; `setAside` says where
/// the old one went so the app can tell the user. A database written by a
/// newer Survey Form is opened read-only (`isReadOnly`), never migrated.
///
/// Before each use the store checks that the file at `url` is still the one
/// it opened: when the data folder was deleted, or another process set the
/// database aside or put another in its place, it opens (or starts) the one
/// the next launch would open, so that no response is confirmed into a file
/// that nobody will read again.
public final class ResponseStore: Sendable {
    /// The database's file name inside the data folder.
    public static let fileName = "responses.sqlite3"
    /// The files SQLite keeps beside the database.
    static let companions = ["-wal", "-shm", "-journal"]

    /// The database file.
    public let url: URL
    /// The damaged database found at opening, if any.
    public let setAside: SetAsideFile?
    /// Whether the database may only be read: it came from a newer version,
    /// or it was opened for an export.
    public var isReadOnly: Bool { readOnlyError != nil }
    /// Why nothing can be stored, when the database may only be read.
    let readOnlyError: StorageError?
    /// Where the store says what became of each response it was given
    /// (`ResponseStored`, `StorageFailed`), from the thread that wrote it.
    public let events: EventBus?

    /// The open database, and which file it is.
    private let connection: Mutex<Connection>

    private struct Connection {
        var queue: DatabaseQueue
        var file: FileIdentity?
    }

    /// Opens (or creates) the database in `directory`, creating the folder
    /// too; what becomes of each response is said on `events`, when given.
    public convenience init(directory: URL, events: EventBus? = nil) throws {
        try self.init(Self.open(directory: directory), events: events)
    }

    /// A database opened for writing, not yet a store: what `open` makes on
    /// whichever thread calls it (`Opening` makes it on one of its own).
    struct Opened: Sendable {
        var url: URL
        var queue: DatabaseQueue
        var isReadOnly: Bool
        var setAside: SetAsideFile?
    }

    init(_ opened: Opened, events: EventBus?) {
        self.events = events
        url = opened.url
        connection = Mutex(Connection(queue: opened.queue, file: FileIdentity(opened.url)))
        readOnlyError = opened.isReadOnly ? StorageError(
            tr("The response was not saved: the response database was written by a newer version of Survey Form and is open read-only."),
            code: .newerDatabase
        ) : nil
        setAside = opened.setAside
    }

    /// One opening at a time in this process. Two at once (the first
    /// window's and the sender's, at start) would both migrate a new
    /// database, the second failing on tables the first made, or both find a
    /// damaged one, the second setting aside the new database the first
    /// started in its place.
    private static let openingLock = Mutex(())

    /// Opens (or creates) the database in `directory`: checked, migrated, a
    /// damaged one moved aside and a new one started in its place.
    static func open(directory: URL) throws -> Opened {
        try openingLock.withLock { _ throws -> Opened in try openUnlocked(directory: directory) }
    }

    private static func openUnlocked(directory: URL) throws -> Opened {
        do {
            try PrivateFiles.prepareFolder(directory)
        } catch {
            throw StorageError(tr("Could not create the data folder %@: %@", directory.path, error.localizedDescription))
        }
        let url = directory.appendingPathComponent(Self.fileName)
        var setAside: SetAsideFile?
        var opened: (queue: DatabaseQueue, isReadOnly: Bool)
        do {
            opened = try Self.openForWriting(url)
        } catch let error as DatabaseError where Self.isDamage(error) {
            do {
                setAside = try SetAsideFile.moveAside(url, companions: Self.companions)
            } catch {
                throw StorageError(tr("The response database %@ is damaged and could not be moved aside: %@", url.path, error.localizedDescription))
            }
            do {
                opened = try Self.openForWriting(url)
            } catch {
                throw StorageError(tr("Could not start a new response database: %@", error.localizedDescription))
            }
        } catch {
            throw StorageError(tr("Could not open the response database %@: %@", url.path, Self.describe(error)))
        }
        return Opened(url: url, queue: opened.queue, isReadOnly: opened.isReadOnly, setAside: setAside)
    }

    private init(url: URL, queue: DatabaseQueue) {
        self.url = url
        events = nil
        connection = Mutex(Connection(queue: queue, file: FileIdentity(url)))
        setAside = nil
        readOnlyError = StorageError(tr("The response was not saved: the response database is open only to be read."))
    }

    /// Opens the database in `directory` only to read it, as an export does:
    /// nothing is created, migrated or moved. A missing, damaged or unreadable
    /// database, or one from a newer version, is an error that says so, so that
    /// an export never stands in for the responses with an empty file.
    public static func openExisting(directory: URL) throws -> ResponseStore {
        let url = directory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw StorageError(tr("There is no response database at %@: no response has been stored on this computer yet.", url.path))
        }
        var configuration = Self.configuration()
        configuration.readonly = true
        do {
            let queue = try withRetries { try DatabaseQueue(path: url.path, configuration: configuration) }
            try check(queue)
            // An older schema reads as it is: its responses lack only newer columns.
            let superseded = try queue.read { db in try migrator.hasBeenSuperseded(db) }
            if superseded {
                throw StorageError(
                    tr("The response database %@ was written by a newer version of Survey Form, whose responses this version cannot read. Export them with that version.", url.path),
                    code: .newerDatabase
                )
            }
            return ResponseStore(url: url, queue: queue)
        } catch let error as StorageError {
            throw error
        } catch let error as DatabaseError where Self.isDamage(error) {
            throw StorageError(tr("The response database %@ is damaged. Open Survey Form to set it aside and start a new one.", url.path))
        } catch {
            throw StorageError(tr("Could not read the response database %@: %@", url.path, Self.describe(error)))
        }
    }

    /// The number of stored responses, to every form (an edited one once).
    public func count() throws -> Int {
        do {
            return try database().read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM form_response WHERE 1\(try Self.currentRevisions(db))") ?? 0
            }
        } catch {
            throw StorageError(tr("Could not read the responses: %@", Self.describe(error)))
        }
    }

    /// Hands `body` one element at a time inside one read: `open` returns
    /// what gives the next element (`nil` at the end). An error `body` throws
    /// ends the walk and reaches the caller as it is; a database error
    /// becomes a `StorageError`.
    func walk<Element>(
        _ open: (Database) throws -> () throws -> Element?, _ body: (Element) throws -> Void
    ) throws {
        var bodyError: (any Error)?
        do {
            try database().read { db in
                let next = try open(db)
                while let element = try next() {
                    do {
                        try body(element)
                    } catch {
                        bodyError = error
                        return
                    }
                }
            }
        } catch {
            throw StorageError(tr("Could not read the responses: %@", Self.describe(error)))
        }
        if let bodyError { throw bodyError }
    }

    /// A pragma's value on the store's connection, for tests of its settings.
    package func _pragma(_ name: String) throws -> String? {
        try database().read { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
    }

    /// Records a migration this version does not know, as a newer version would.
    package func _recordMigration(_ identifier: String) throws {
        try database().write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier])
        }
    }

    /// Caps the database's size in pages, so tests can fill it as a full disk would.
    package func limitSize(toPages pages: Int) throws {
        try database().write { db in _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages)") }
    }

    // MARK: - Opening

    /// The database now at `url`: the one opened, unless the file has gone
    /// or been replaced since, when a writable store opens what is there now
    /// (starting a new database, and its folder, if there is none).
    func database() throws -> DatabaseQueue {
        try connection.withLock { current throws -> DatabaseQueue in
            let file = FileIdentity(url)
            if file != nil && file == current.file { return current.queue }
            if readOnlyError != nil {
                guard file != nil else { throw StorageError(tr("The response database %@ is gone.", url.path)) }
                return current.queue
            }
            try? current.queue.close()
            let reopened: (queue: DatabaseQueue, isReadOnly: Bool)
            do {
                try PrivateFiles.prepareFolder(url.deletingLastPathComponent())
                reopened = try Self.openingLock.withLock { _ throws in try Self.openForWriting(url) }
            } catch {
                throw StorageError(tr("The response database %@ was removed or replaced, and no other could be opened there: %@", url.path, Self.describe(error)))
            }
            current = Connection(queue: reopened.queue, file: FileIdentity(url))
            if reopened.isReadOnly {
                throw StorageError(tr("The response database %@ was replaced by one from a newer version of Survey Form.", url.path), code: .newerDatabase)
            }
            return reopened.queue
        }
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        // NB: a rollback journal, not WAL: a WAL database cannot be opened on
        // read-only media (a backup, a locked-down folder) unless its -shm file
        // happens to be there, and the stored responses must stay readable.
        // FULL syncs the journal and the database before a commit returns.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return configuration
    }

    /// Opens `url` for reading and writing, migrated to this version's schema;
    /// read-only instead when a newer version has migrated it further.
    private static func openForWriting(_ url: URL) throws -> (queue: DatabaseQueue, isReadOnly: Bool) {
        PrivateFiles.createIfMissing(url)
        let queue = try withRetries { try DatabaseQueue(path: url.path, configuration: configuration()) }
        try check(queue)
        for file in [url.path] + companions.map({ url.path + $0 }) {
            try PrivateFiles.restrict(URL(fileURLWithPath: file))
        }
        if try queue.read({ db in try migrator.hasBeenSuperseded(db) }) {
            try queue.close()
            var configuration = configuration()
            configuration.readonly = true
            return (try withRetries { try DatabaseQueue(path: url.path, configuration: configuration) }, true)
        }
        try migrator.migrate(queue)
        return (queue, false)
    }

    /// Reading the schema fails on a file that is not a database; quick_check
    /// finds damage inside one that is.
    private static func check(_ queue: DatabaseQueue) throws {
        let check = try queue.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") }
        guard check == "ok" else {
            try queue.close()
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: check ?? "quick_check failed")
        }
    }

    /// Runs `open` again when another process holds a lock for a moment
    /// (a second instance starting, an export reading).
    private static func withRetries<T>(_ open: () throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try open()
            } catch let error as DatabaseError
                where attempt < 5 && (error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED) {
                attempt += 1
                usleep(200_000)
            }
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: responses") { db in
            try db.create(table: "response") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("submittedAt", .datetime).notNull().indexed()
                table.column("name", .text).notNull()
                table.column("companyName", .text).notNull()
                table.column("yearsOfExperience", .double)
                table.column("isCurrentEmployer", .boolean).notNull()
                table.column("approxSalary", .double)
                table.column("comments", .text).notNull()
            }
        }
        migrator.registerMigration("v2: instance ids") { db in
            try db.alter(table: "response") { table in
                table.add(column: "instanceID", .text)
            }
            // Responses from before have none; SQLite lets NULLs repeat.
            try db.create(index: "response_instanceID", on: "response",
                          columns: ["instanceID"], unique: true)
        }
        migrator.registerMigration("v3: responses to any form") { db in
            try FormResponseRecord.createTable(db)
        }
        migrator.registerMigration("v4: outbox") { db in
            try createOutbox(db)
        }
        migrator.registerMigration("v5: undelivered in order") { db in
            // A sender's claim reads the undelivered oldest first; without
            // this it sorted every response ever queued, at every batch.
            try db.execute(sql: "CREATE INDEX delivery_pending ON delivery (queuedAt) WHERE state <> 'sent'")
        }
        migrator.registerMigration("v6: built-in start times and versions") { db in
            // As forms from files have: when each response was started, and
            // which version of the survey it answers. Older rows have neither.
            try db.alter(table: "response") { table in
                table.add(column: "startedAt", .datetime)
                table.add(column: "formVersion", .text)
            }
        }
        migrator.registerMigration("v7: one table for every form") { db in
            try LegacySurvey.moveResponses(db)
        }
        migrator.registerMigration("v8: answers that name files") { _ in
            // No table changes: answers may now be of the kind `attachment`,
            // which an older version cannot read, so it opens this database
            // read-only rather than failing on them one by one.
        }
        migrator.registerMigration("v9: deliveries to OpenRosa servers") { db in
            // Where each response goes (NULL: the shared PostgreSQL server,
            // as before) and, for an OpenRosa server, the instance XML made
            // from its form when it was stored.
            try db.execute(sql: "ALTER TABLE delivery ADD COLUMN destination TEXT")
            try db.execute(sql: "ALTER TABLE delivery ADD COLUMN submission TEXT")
        }
        migrator.registerMigration("v10: edits as revisions") { db in
            // An edit is a new response naming the one it replaces, which
            // stays as history; a response is replaced at most once.
            try db.execute(sql: "ALTER TABLE form_response ADD COLUMN deprecatedID TEXT")
            try db.execute(sql: "ALTER TABLE form_response ADD COLUMN supersededBy TEXT")
            try db.execute(sql: """
                CREATE UNIQUE INDEX form_response_deprecated ON form_response (deprecatedID) WHERE deprecatedID IS NOT NULL
                """)
            // The response a delivery must wait for: a server learns of an
            // edit only after the revision it replaces.
            try db.execute(sql: "ALTER TABLE delivery ADD COLUMN predecessor TEXT")
        }
        migrator.registerMigration("v11: encrypted submissions") { db in
            // A form's public key, for responses encrypted for its server,
            // and the envelope made at the first try, which every retry sends.
            try db.execute(sql: "ALTER TABLE delivery ADD COLUMN publicKey TEXT")
            try db.execute(sql: "ALTER TABLE delivery ADD COLUMN envelope BLOB")
        }
        return migrator
    }

    private static func isDamage(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_FULL: return tr("the disk is full.")
            case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN: return tr("the data folder cannot be written.")
            default: return error.message ?? "\(error)"
            }
        }
        return error.localizedDescription
    }
}

/// Which file a path names (device and inode), to notice a file replaced or
/// deleted behind the store's back; `nil` when nothing is there.
private struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init?(_ url: URL) {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
