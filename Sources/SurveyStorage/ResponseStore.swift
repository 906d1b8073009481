public import Foundation
public import SurveyModel
import GRDB

/// The submitted responses, in an SQLite database.
///
/// Every write is a transaction. A database that SQLite cannot read is moved
/// aside, never overwritten, and a new one is started; `setAside` says where the
/// old one went so the app can tell the user.
public final class ResponseStore: Sendable {
    /// The database's file name inside the data folder.
    public static let fileName = "responses.sqlite3"

    /// The database file.
    public let url: URL
    /// The damaged database found at opening, if any.
    public let setAside: SetAsideFile?

    private let queue: DatabaseQueue

    /// Opens (or creates) the database in `directory`, creating the folder too.
    public init(directory: URL) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StorageError("Could not create the data folder \(directory.path): \(error.localizedDescription)")
        }
        url = directory.appendingPathComponent(Self.fileName)
        do {
            queue = try Self.open(url)
            setAside = nil
        } catch let error as DatabaseError where Self.isDamage(error) {
            let moved: SetAsideFile
            do {
                moved = try SetAsideFile.moveAside(url, companions: ["-wal", "-shm", "-journal"])
            } catch {
                throw StorageError("The response database \(url.path) is damaged and could not be moved aside: \(error.localizedDescription)")
            }
            do {
                queue = try Self.open(url)
            } catch {
                throw StorageError("Could not start a new response database: \(error.localizedDescription)")
            }
            setAside = moved
        } catch {
            throw StorageError("Could not open the response database \(url.path): \(Self.describe(error))")
        }
    }

    /// Stores `response` and returns it with its new identifier.
    @discardableResult
    public func insert(_ response: SurveyResponse) throws -> SurveyResponse {
        do {
            return try queue.write { db in
                var record = ResponseRecord(response)
                try record.insert(db)
                return record.response
            }
        } catch {
            throw StorageError("The response was not saved: \(Self.describe(error))")
        }
    }

    /// The number of stored responses.
    public func count() throws -> Int {
        do {
            return try queue.read { db in try ResponseRecord.fetchCount(db) }
        } catch {
            throw StorageError("Could not read the responses: \(Self.describe(error))")
        }
    }

    /// Every stored response, newest first.
    public func newestFirst() throws -> [SurveyResponse] {
        try fetch(ResponseRecord.order(Column("submittedAt").desc, Column("id").desc))
    }

    /// Every stored response in the order they were submitted.
    public func inSubmissionOrder() throws -> [SurveyResponse] {
        try fetch(ResponseRecord.order(Column("id").asc))
    }

    private func fetch(_ request: QueryInterfaceRequest<ResponseRecord>) throws -> [SurveyResponse] {
        do {
            return try queue.read { db in try request.fetchAll(db).map(\.response) }
        } catch {
            throw StorageError("Could not read the responses: \(Self.describe(error))")
        }
    }

    /// Caps the database's size in pages, so tests can fill it as a full disk would.
    package func limitSize(toPages pages: Int) throws {
        try queue.write { db in _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages)") }
    }

    // MARK: - Opening

    private static func open(_ url: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        // Reading the schema fails on a file that is not a database; quick_check
        // finds damage inside one that is.
        let check = try queue.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") }
        guard check == "ok" else {
            try queue.close()
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: check ?? "quick_check failed")
        }
        try migrator.migrate(queue)
        return queue
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: responses") { db in
            try db.create(table: ResponseRecord.databaseTableName) { table in
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
        return migrator
    }

    private static func isDamage(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_FULL: return "the disk is full."
            case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN: return "the data folder cannot be written."
            default: return error.message ?? "\(error)"
            }
        }
        return error.localizedDescription
    }
}

/// A response as a database row.
private struct ResponseRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "response"

    var id: Int64?
    var submittedAt: Date
    var name: String
    var companyName: String
    var yearsOfExperience: Double?
    var isCurrentEmployer: Bool
    var approxSalary: Double?
    var comments: String

    init(_ response: SurveyResponse) {
        id = response.id
        submittedAt = response.submittedAt
        name = response.answers.name
        companyName = response.answers.companyName
        yearsOfExperience = response.answers.yearsOfExperience
        isCurrentEmployer = response.answers.isCurrentEmployer
        approxSalary = response.answers.approxSalary.map(Double.init)
        comments = response.answers.comments
    }

    var response: SurveyResponse {
        SurveyResponse(
            id: id,
            answers: SurveyAnswers(
                name: name,
                companyName: companyName,
                yearsOfExperience: yearsOfExperience,
                isCurrentEmployer: isCurrentEmployer,
                approxSalary: approxSalary.map(Float.init),
                comments: comments
            ),
            submittedAt: submittedAt
        )
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
