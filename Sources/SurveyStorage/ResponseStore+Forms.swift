import Foundation
import GRDB
import FormEngine

/// Responses to forms, the built-in survey's as any other's.
extension ResponseStore {
    /// Stores `response`, with its answers and title cleaned of control
    /// characters, queued for `destination` in the same
    /// transaction, and returns it as stored. An instance id
    /// stored already is not stored again: that response is returned.
    @discardableResult
    public func insert(_ response: FormResponse, for destination: DeliveryDestination = .sharedServer) throws -> FormResponse {
        try announcing { try store(response, for: destination) }
    }

    private func store(_ response: FormResponse, for destination: DeliveryDestination) throws -> FormResponse {
        if let readOnlyError { throw readOnlyError }
        var cleaned = response
        cleaned.answers = response.answers.map {
            FormResponse.Answer(path: $0.path, value: $0.value.removingControlCharacters(keepingLineBreaks: true), kind: $0.kind)
        }
        cleaned.title = response.title.removingControlCharacters(keepingLineBreaks: false)
        do {
            return try database().write { db in
                if let stored = try FormResponseRecord.filter(Column("instanceID") == cleaned.instanceID).fetchOne(db) {
                    return try stored.response()
                }
                var record = try FormResponseRecord(cleaned)
                if let replaced = cleaned.deprecatedID {
                    // An edit replaces the current revision only: one edited
                    // meanwhile (in another window) is a conflict, not lost.
                    guard let previous = try FormResponseRecord.filter(Column("instanceID") == replaced).fetchOne(db) else {
                        throw RevisionRefused(message: tr("The response being edited is no longer stored, so the edit is kept in the form and not saved."))
                    }
                    if let newer = previous.supersededBy {
                        throw RevisionRefused(message: tr("The response being edited was edited already (its newer revision is %@), so this edit is kept in the form and not saved.", newer))
                    }
                    try record.insert(db)
                    try db.execute(sql: "UPDATE form_response SET supersededBy = ? WHERE id = ?", arguments: [record.instanceID, previous.id])
                } else {
                    try record.insert(db)
                }
                try Self.enqueue(db, instanceID: record.instanceID, responseID: record.id!, destination: destination,
                                 predecessor: cleaned.deprecatedID)
                return try record.response()
            }
        } catch let refused as RevisionRefused {
            throw StorageError(refused.message)
        } catch {
            throw StorageError(tr("The response was not saved: %@", Self.describe(error)))
        }
    }

    private struct RevisionRefused: Error {
        let message: String
    }

    /// Every revision of the response whose current revision is
    /// `instanceID`, oldest first, that one last.
    public func revisions(endingWith instanceID: String) throws -> [FormResponse] {
        do {
            return try database().read { db in
                var chain: [FormResponse] = []
                var next: String? = instanceID
                // Bounded by the rows there are: a damaged chain cannot loop.
                let bound = try FormResponseRecord.fetchCount(db)
                while let id = next, chain.count <= bound,
                      let record = try FormResponseRecord.filter(Column("instanceID") == id).fetchOne(db) {
                    chain.append(try record.response())
                    next = record.deprecatedID
                }
                return chain.reversed()
            }
        } catch {
            throw StorageError(tr("Could not read the responses: %@", Self.describe(error)))
        }
    }

    /// Only the current revision of each response, in a query over
    /// `form_response` as `alias`; nothing in a database from before
    /// revisions (opened to be read).
    static func currentRevisions(_ db: Database, alias: String = "form_response") throws -> String {
        try db.columns(in: FormResponseRecord.databaseTableName).contains { $0.name == "supersededBy" }
            ? " AND \(alias).supersededBy IS NULL" : ""
    }

    /// The responses to the form `formID` (any version), newest first.
    public func responses(toForm formID: String) throws -> [FormResponse] {
        var result: [FormResponse] = []
        try forEachResponse(toForm: formID) { result.append($0) }
        return result.reversed()
    }

    /// The newest `limit` responses to `formID`, newest first, and how many
    /// there are in all: what a list shows, read without the rest (the
    /// index on form and id makes both cheap at any count).
    public func newestResponses(toForm formID: String, limit: Int) throws -> (newest: [FormResponse], total: Int) {
        do {
            return try database().read { db in
                guard try db.tableExists(FormResponseRecord.databaseTableName) else { return ([], 0) }
                var request = FormResponseRecord.filter(Column("formID") == formID)
                if try !Self.currentRevisions(db).isEmpty { request = request.filter(Column("supersededBy") == nil) }
                let total = try request.fetchCount(db)
                let newest = try request.order(Column("id").desc).limit(limit).fetchAll(db).map { try $0.response() }
                return (newest, total)
            }
        } catch {
            throw StorageError(tr("Could not read the responses: %@", Self.describe(error)))
        }
    }

    /// What a list of `formID`'s responses (any version) shows of each,
    /// newest first: a few columns read through a cursor, so that 100,000
    /// responses take milliseconds (and, from a task off the main thread,
    /// no frame).
    public func listing(ofForm formID: String) throws -> [ListedResponse] {
        do {
            return try database().read { db in
                guard try db.tableExists(FormResponseRecord.databaseTableName) else { return [] }
                // A database only read, from before the outbox, has no deliveries.
                let delivery = try db.tableExists("delivery")
                    ? "LEFT JOIN delivery d ON d.instanceID = f.instanceID"
                    : "LEFT JOIN (SELECT NULL AS state, NULL AS lastError, NULL AS instanceID) d ON 0"
                let title = try db.columns(in: FormResponseRecord.databaseTableName).contains { $0.name == "title" }
                    ? "f.title" : "''"
                var listed: [ListedResponse] = []
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT f.id, f.instanceID, \(title), f.submittedAt, d.state, d.lastError
                    FROM form_response f \(delivery)
                    WHERE f.formID = ?\(try Self.currentRevisions(db, alias: "f"))
                    ORDER BY f.submittedAt DESC, f.id DESC
                    """, arguments: [formID])
                while let row = try rows.next() {
                    listed.append(ListedResponse(
                        id: row[0], instanceID: row[1], title: row[2], submittedAt: row[3],
                        delivery: (row[4] as String?).flatMap(DeliveryState.init(rawValue:)), deliveryError: row[5]
                    ))
                }
                return listed
            }
        } catch {
            throw StorageError(tr("Could not read the responses: %@", Self.describe(error)))
        }
    }

    /// The stored response `id`, or `nil` when there is none.
    public func response(id: Int64) throws -> FormResponse? {
        do {
            return try database().read { db in try FormResponseRecord.fetchOne(db, key: id)?.response() }
        } catch {
            throw StorageError(tr("Could not read the responses: %@", Self.describe(error)))
        }
    }

    /// Calls `body` with each response to `formID` in submission order, one
    /// at a time. A database from before forms from files has none; in one
    /// from before the one form stack, opened only to be read, the built-in
    /// survey's are still in their own table, and come first.
    public func forEachResponse(toForm formID: String, _ body: (FormResponse) throws -> Void) throws {
        try walk({ db in
            var legacy = formID == LegacySurvey.formID ? try LegacySurvey.unmovedResponses(db) : nil
            guard try db.tableExists(FormResponseRecord.databaseTableName) else { return { try legacy?() } }
            // Columns by position, not by Codable's name look-ups: an export
            // reads every row. A database from before titles, only read, has none.
            let title = try db.columns(in: FormResponseRecord.databaseTableName).contains { $0.name == "title" } ? "title" : "''"
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT id, formID, formVersion, instanceID, startedAt, submittedAt, answers, \(title)
                FROM form_response WHERE formID = ?\(try Self.currentRevisions(db)) ORDER BY id
                """, arguments: [formID])
            return {
                if let next = try legacy?() { return next }
                legacy = nil
                guard let row = try cursor.next() else { return nil }
                return FormResponse(
                    id: row[0], formID: row[1], formVersion: row[2], instanceID: row[3], startedAt: row[4], submittedAt: row[5],
                    title: row[7], answers: try row.withUnsafeData(atIndex: 6) { try StoredAnswers.decode($0 ?? Data()) }
                )
            }
        }, body)
    }

    /// What `forEachResponse` hands out, as bytes: one buffer filled again
    /// for each response, for an export of every row.
    func forEachResponseBytes(toForm formID: String, _ body: (ResponseBytes) throws -> Void) throws {
        let response = ResponseBytes()
        try walk({ db in
            var legacy = formID == LegacySurvey.formID ? try LegacySurvey.unmovedResponses(db) : nil
            guard try db.tableExists(FormResponseRecord.databaseTableName) else {
                return { try legacy?().map { response.fill(from: $0); return response } }
            }
            let statement = try db.makeStatement(sql: """
                SELECT submittedAt, startedAt, instanceID, formVersion, answers
                FROM form_response WHERE formID = ?\(try Self.currentRevisions(db)) ORDER BY id
                """)
            let cursor = try Row.fetchCursor(statement, arguments: [formID])
            return {
                if let next = try legacy?() {
                    response.fill(from: next)
                    return response
                }
                legacy = nil
                guard let row = try cursor.next() else { return nil }
                try response.fill(from: row, of: statement.sqliteStatement)
                return response
            }
        }, body)
    }

    /// Removes the stored response `id`; returns it, so that it can be put back.
    @discardableResult
    public func deleteResponse(id: Int64) throws -> FormResponse? {
        if let readOnlyError { throw readOnlyError }
        do {
            return try database().write { db in
                guard let record = try FormResponseRecord.fetchOne(db, key: id) else { return nil }
                try record.delete(db)
                // An edit deleted (its submit undone): the revision it
                // replaced is the current one again.
                if let replaced = record.deprecatedID {
                    try db.execute(sql: "UPDATE form_response SET supersededBy = NULL WHERE instanceID = ?", arguments: [replaced])
                }
                // Not sent if still queued; put back, it is queued again.
                try db.execute(sql: "DELETE FROM delivery WHERE instanceID = ?", arguments: [record.instanceID])
                return try record.response()
            }
        } catch {
            throw StorageError(tr("The response was not deleted: %@", Self.describe(error)))
        }
    }
}

/// A response to a form from a file, as a row: answers as a JSON array of
/// `{path, value}` objects, so that their order is kept.
struct FormResponseRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "form_response"

    var id: Int64?
    var formID: String
    var formVersion: String
    var instanceID: String
    var startedAt: Date
    var submittedAt: Date
    /// `nil` only in a database from before titles, opened to be read.
    var title: String?
    var answers: String
    /// The revision this one replaces, and the one that replaced it.
    var deprecatedID: String?
    var supersededBy: String?

    static func createTable(_ db: Database) throws {
        try db.create(table: databaseTableName) { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("formID", .text).notNull()
            table.column("formVersion", .text).notNull()
            table.column("instanceID", .text).notNull().unique()
            table.column("startedAt", .datetime).notNull()
            table.column("submittedAt", .datetime).notNull()
            table.column("answers", .text).notNull()
        }
        try db.create(index: "form_response_form", on: databaseTableName, columns: ["formID", "id"])
    }

    init(_ response: FormResponse) throws {
        id = response.id
        formID = response.formID
        formVersion = response.formVersion
        instanceID = response.instanceID
        startedAt = response.startedAt
        submittedAt = response.submittedAt
        title = response.title
        answers = String(decoding: try JSONEncoder().encode(response.answers), as: UTF8.self)
        deprecatedID = response.deprecatedID
    }

    func response() throws -> FormResponse {
        FormResponse(
            id: id, formID: formID, formVersion: formVersion, instanceID: instanceID,
            startedAt: startedAt, submittedAt: submittedAt, title: title ?? "",
            answers: try StoredAnswers.decode(Data(answers.utf8)), deprecatedID: deprecatedID
        )
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// Columns by name; the revision columns only when set, since the
    /// migration that moves the built-in survey's responses (v7) inserts
    /// rows before they exist.
    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["formID"] = formID
        container["formVersion"] = formVersion
        container["instanceID"] = instanceID
        container["startedAt"] = startedAt
        container["submittedAt"] = submittedAt
        container["title"] = title
        container["answers"] = answers
        if let deprecatedID { container["deprecatedID"] = deprecatedID }
        if let supersededBy { container["supersededBy"] = supersededBy }
    }
}
