public import Foundation
import GRDB
import FormEngine

/// Where a stored response stands on its way to the shared server.
public enum DeliveryState: String, Sendable, Equatable, CaseIterable {
    /// Queued, not tried yet.
    case waiting
    /// Handed to a sender, which has not heard back yet.
    case sending
    /// The server has it.
    case sent
    /// The last try failed; it is tried again later (`Delivery.lastError` says why).
    case failed
}

/// A stored response's delivery: its state, how many tries, the last
/// failure's reason and when the next try may start.
public struct Delivery: Sendable, Equatable {
    public var instanceID: String
    public var state: DeliveryState
    public var attempts: Int
    public var lastError: String?
    public var nextAttemptAt: Date?
    public var sentAt: Date?
}

/// A response as a sender delivers it: which form and version it answers,
/// its times, and its answers as one JSON object keyed by question name (or
/// path), as the server stores them.
public struct OutgoingResponse: Sendable, Equatable {
    public var instanceID: String
    public var formID: String
    public var formVersion: String
    public var startedAt: Date?
    public var submittedAt: Date
    public var answersJSON: String
    /// Tries so far, this one included.
    public var attempts = 1
    /// The files its answers name, which go with it (`AttachmentStore`).
    public var attachmentNames: [String] = []
    /// For an OpenRosa server, the instance XML it is sent as (made when the
    /// response was stored, from the form it answers).
    public var submission: String?
    /// For an edit, the revision it replaces.
    public var deprecatedID: String?
    /// For a form whose responses are encrypted for its server (ODK's
    /// `base64RsaPublicKey`), the form's public key: such a response is
    /// never sent as it is stored.
    public var publicKey: String?
    /// The encrypted envelope made at its first try (`keepEnvelope`), sent
    /// unchanged by every later one, so that a retry repeats the request
    /// the server may already hold rather than a new encryption of it.
    public var envelope: Data?
}

/// Where a stored response is delivered: decided when it is stored, by
/// where its form came from.
public enum DeliveryDestination: Sendable, Equatable {
    /// The shared PostgreSQL server set in Preferences.
    case sharedServer
    /// The OpenRosa server its form was downloaded from (its address), with
    /// the instance XML the server is sent and, for a form that encrypts
    /// its responses, the form's public key.
    case openRosa(server: String, submission: String, publicKey: String? = nil)

    /// The server's address as the outbox records it; nil for the shared server.
    var server: String? {
        if case .openRosa(let server, _, _) = self { return server }
        return nil
    }
}

/// The outbox at a glance: how many responses are in each state, and the
/// latest failure.
public struct DeliverySummary: Sendable, Equatable {
    public var waiting = 0
    public var sending = 0
    public var failed = 0
    public var sent = 0
    public var lastError: String?
    public var lastSentAt: Date?
    /// When the earliest failed or waiting response may be tried again.
    public var nextAttemptAt: Date?

    /// Responses not yet on the server.
    public var queued: Int { waiting + sending + failed }

    public init() {}
}

/// The outbox: every stored response has a delivery row, written in the
/// transaction that stores the response, so that nothing stored can miss
/// the server and nothing is queued that was not stored. Delivery never
/// deletes a response; a sent one stays, marked sent.
///
/// Senders claim a batch (`claimBatch`), which marks it `sending` for a
/// lease; a sender that dies mid-batch leaves rows whose lease runs out, and
/// the next claim takes them again. The server stores by instance id at most
/// once, so a batch sent twice is harmless.
extension ResponseStore {
    /// This store's device id: made once, with the outbox, and kept in the
    /// database, so that each computer's responses say where they came from.
    public func deviceID() throws -> String {
        do {
            return try database().read { db in
                try String.fetchOne(db, sql: "SELECT value FROM store_info WHERE key = 'device_id'")
            } ?? ""
        } catch {
            throw StorageError(tr("Could not read the responses: %@", Self.describe(error)))
        }
    }

    /// Takes up to `limit` responses due for delivery, oldest first, marks
    /// them `sending` until `leaseEnd`, and returns them with their answers
    /// as they are now (a response changed while queued goes as changed).
    /// A response another sender holds is taken only once its lease ends.
    /// `maxBytes` bounds the batch's answers as JSON too (a batch holds at
    /// least one response, however large): count alone lets a batch of long
    /// texts grow past what one server statement should carry.
    /// `destination` is the OpenRosa server's address whose responses are
    /// wanted, or nil for the shared PostgreSQL server's.
    public func claimBatch(
        limit: Int, maxBytes: Int = .max, now: Date = Date(), leaseEnd: Date, destination: String? = nil
    ) throws -> [OutgoingResponse] {
        if let readOnlyError { throw readOnlyError }
        do {
            let attachments = AttachmentStore(directory: url.deletingLastPathComponent())
            return try database().write { db in
                // One reading for the whole batch, each response joined to
                // its answers, and one update claiming the same rows: a
                // statement per response would cost the sender more than
                // the server's insert does.
                let due = "SELECT rowid FROM delivery WHERE \(Self.isDue) ORDER BY queuedAt, rowid LIMIT :limit"
                let arguments: StatementArguments = ["now": now, "limit": limit, "lease": leaseEnd, "destination": destination]
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT d.instanceID, d.attempts, f.id, f.formID, f.formVersion, f.startedAt, f.submittedAt, f.answers, d.submission,
                        f.deprecatedID, d.publicKey, d.envelope
                    FROM delivery AS d
                    LEFT JOIN form_response AS f ON f.id = d.responseID
                    WHERE d.rowid IN (\(due))
                    ORDER BY d.queuedAt, d.rowid
                    """, arguments: arguments)
                var batch: [OutgoingResponse] = []
                var gone: [String] = []
                var bytes = 0
                while let row = try rows.next() {
                    guard bytes < maxBytes else { break }
                    // By position: a lookup by name compares names case-insensitively.
                    let instanceID: String = row[0]
                    let attempts = row[1] as Int + 1
                    if row.hasNull(atIndex: 2) {
                        // Its response is gone: nothing left to send.
                        gone.append(instanceID)
                    } else {
                        let answers = try row.withUnsafeData(atIndex: 7) { try StoredAnswers.decode($0 ?? Data()) }
                        let names = FormResponse.attachmentNames(in: answers)
                        batch.append(OutgoingResponse(
                            instanceID: instanceID, formID: row[3], formVersion: row[4],
                            startedAt: row[5], submittedAt: row[6], answersJSON: AnswersJSON.text(of: answers),
                            attempts: attempts, attachmentNames: names, submission: row[8], deprecatedID: row[9],
                            publicKey: row[10], envelope: row[11]
                        ))
                        // Its files count toward the batch's bytes too.
                        bytes += names.isEmpty ? 0 : attachments.size(of: names, instanceID: instanceID)
                    }
                    if let last = batch.last, last.instanceID == instanceID {
                        bytes += last.answersJSON.utf8.count
                        // Past the bound: left for the next batch, unless it is the batch's only one.
                        if bytes > maxBytes, batch.count > 1 {
                            batch.removeLast()
                            break
                        }
                    }
                }
                // Only what was taken is claimed; the rest stays due.
                try db.execute(sql: """
                    UPDATE delivery SET state = 'sending', attempts = attempts + 1, nextAttemptAt = :lease
                    WHERE instanceID IN (SELECT value FROM json_each(:taken))
                    """, arguments: ["lease": leaseEnd, "taken": Self.jsonArray(batch.map(\.instanceID))])
                if !gone.isEmpty {
                    try db.execute(sql: "DELETE FROM delivery WHERE instanceID IN (SELECT value FROM json_each(?))",
                                   arguments: [Self.jsonArray(gone)])
                }
                return batch
            }
        } catch {
            throw StorageError(tr("Could not read the responses: %@", Self.describe(error)))
        }
    }

    /// Whether any response is due for delivery at `now` to `destination`
    /// (an OpenRosa server's address; nil: the shared PostgreSQL server).
    public func hasDue(at now: Date = Date(), destination: String? = nil) throws -> Bool {
        // Opened only to be read (a newer version's), nothing is sent from it.
        guard readOnlyError == nil else { return false }
        do {
            return try database().read { db in
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM delivery WHERE \(Self.isDue))",
                                  arguments: ["now": now, "destination": destination]) ?? false
            }
        } catch {
            throw StorageError(tr("Could not read the responses: %@", Self.describe(error)))
        }
    }

    /// Where the response `instanceID` is queued for (the shared server
    /// when it is not queued): what a response deleted and stored again by
    /// Undo is queued for again.
    public func destination(of instanceID: String) throws -> DeliveryDestination {
        do {
            return try database().read { db in
                guard let row = try Row.fetchOne(db, sql: "SELECT destination, submission, publicKey FROM delivery WHERE instanceID = ?",
                                                 arguments: [instanceID]),
                      let server: String = row[0], let submission: String = row[1]
                else { return .sharedServer }
                return .openRosa(server: server, submission: submission, publicKey: row[2])
            }
        } catch {
            throw StorageError(tr("Could not read the responses: %@", Self.describe(error)))
        }
    }

    /// The OpenRosa servers the outbox has held responses for, delivered or not.
    public func openRosaDestinations() throws -> [String] {
        do {
            return try database().read { db in
                try String.fetchAll(db, sql: """
                    SELECT DISTINCT destination FROM delivery WHERE destination IS NOT NULL ORDER BY destination
                    """)
            }
        } catch {
            throw StorageError(tr("Could not read the responses: %@", Self.describe(error)))
        }
    }

    /// Makes every response not yet delivered due now, as *Send Now* asks:
    /// those waiting out a retry, and those a sender holds. A sender killed
    /// mid-batch leaves its lease behind; should the holder be alive after
    /// all, the batch goes twice and the server stores it once.
    public func makeAllDue() throws {
        if let readOnlyError { throw readOnlyError }
        do {
            try database().write { db in
                try db.execute(sql: """
                    UPDATE delivery SET nextAttemptAt = NULL,
                        state = CASE state WHEN 'sending' THEN 'waiting' ELSE state END
                    WHERE state IN ('failed', 'sending')
                    """)
            }
        } catch {
            throw StorageError(tr("Could not record the delivery: %@", Self.describe(error)))
        }
    }

    /// Keeps the encrypted envelope made for `instanceID`'s first try and
    /// returns the one kept: an envelope kept already stays.
    public func keepEnvelope(_ envelope: Data, for instanceID: String) throws -> Data {
        if let readOnlyError { throw readOnlyError }
        do {
            return try database().write { db in
                try db.execute(sql: "UPDATE delivery SET envelope = ? WHERE instanceID = ? AND envelope IS NULL",
                               arguments: [envelope, instanceID])
                return try Data.fetchOne(db, sql: "SELECT envelope FROM delivery WHERE instanceID = ?", arguments: [instanceID]) ?? envelope
            }
        } catch {
            throw StorageError(tr("Could not record the delivery: %@", Self.describe(error)))
        }
    }

    /// Records that the server holds these responses.
    public func markSent(_ instanceIDs: [String], at time: Date = Date()) throws {
        try update(instanceIDs, sql: """
            UPDATE delivery SET state = 'sent', sentAt = :time, lastError = NULL, nextAttemptAt = NULL
            WHERE instanceID IN (SELECT value FROM json_each(:ids))
            """, ["time": time])
    }

    /// Records a failed try: `reason` as the server or the network gave it,
    /// and when to try again.
    public func markFailed(_ instanceIDs: [String], reason: String, retryAt: Date) throws {
        try update(instanceIDs, sql: """
            UPDATE delivery SET state = 'failed', lastError = :reason, nextAttemptAt = :retry
            WHERE instanceID IN (SELECT value FROM json_each(:ids)) AND state <> 'sent'
            """, ["reason": reason, "retry": retryAt])
    }

    private func update(_ instanceIDs: [String], sql: String, _ arguments: StatementArguments) throws {
        if let readOnlyError { throw readOnlyError }
        guard !instanceIDs.isEmpty else { return }
        do {
            try database().write { db in
                try db.execute(sql: sql, arguments: arguments + ["ids": Self.jsonArray(instanceIDs)])
            }
        } catch {
            throw StorageError(tr("Could not record the delivery: %@", Self.describe(error)))
        }
    }

    /// `strings` as one JSON array, for `json_each`: a whole batch bound as
    /// one value to one statement.
    private static func jsonArray(_ strings: [String]) -> String {
        JSONValue.array(strings.map(JSONValue.string)).text
    }

    /// The delivery of the response with instance id `instanceID`, if it is stored.
    public func delivery(of instanceID: String) throws -> Delivery? {
        do {
            return try database().read { db in
                guard try db.tableExists("delivery") else { return nil }
                return try Row.fetchOne(db, sql: "SELECT * FROM delivery WHERE instanceID = ?", arguments: [instanceID])
                    .map(Self.delivery(from:))
            }
        } catch {
            throw StorageError(tr("Could not read the responses: %@", Self.describe(error)))
        }
    }

    /// The deliveries of the responses with these instance ids, by instance
    /// id (for a list of responses; one reading for all of them).
    public func deliveries(of instanceIDs: [String]) throws -> [String: Delivery] {
        guard !instanceIDs.isEmpty else { return [:] }
        do {
            return try database().read { db in
                guard try db.tableExists("delivery") else { return [:] }
                var found: [String: Delivery] = [:]
                for row in try Row.fetchAll(db, sql: """
                    SELECT * FROM delivery WHERE instanceID IN (SELECT value FROM json_each(?))
                    """, arguments: [Self.jsonArray(instanceIDs)]) {
                    let delivery = Self.delivery(from: row)
                    found[delivery.instanceID] = delivery
                }
                return found
            }
        } catch {
            throw StorageError(tr("Could not read the responses: %@", Self.describe(error)))
        }
    }

    /// How many responses are in each state, and the latest failure.
    public func deliverySummary() throws -> DeliverySummary {
        do {
            return try database().read { db in
                var summary = DeliverySummary()
                guard try db.tableExists("delivery") else { return summary }
                for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS count FROM delivery GROUP BY state") {
                    let count: Int = row["count"]
                    switch DeliveryState(rawValue: row["state"]) {
                    case .waiting: summary.waiting = count
                    case .sending: summary.sending = count
                    case .failed: summary.failed = count
                    case .sent: summary.sent = count
                    case nil: break
                    }
                }
                summary.lastError = try String.fetchOne(db, sql: """
                    SELECT lastError FROM delivery WHERE state = 'failed' ORDER BY nextAttemptAt DESC LIMIT 1
                    """)
                summary.lastSentAt = try Date.fetchOne(db, sql: "SELECT MAX(sentAt) FROM delivery")
                summary.nextAttemptAt = try Date.fetchOne(db, sql: """
                    SELECT MIN(nextAttemptAt) FROM delivery WHERE state = 'failed'
                    """)
                return summary
            }
        } catch {
            throw StorageError(tr("Could not read the responses: %@", Self.describe(error)))
        }
    }

    /// Puts deliveries in `state`, as a sender killed at some point leaves
    /// them, for tests of what the next sender does.
    package func _setDelivery(_ instanceIDs: [String], state: DeliveryState, nextAttemptAt: Date?) throws {
        try update(instanceIDs, sql: """
            UPDATE delivery SET state = :state, nextAttemptAt = :next WHERE instanceID IN (SELECT value FROM json_each(:ids))
            """, ["state": state.rawValue, "next": nextAttemptAt])
    }

    /// A `delivery` row to send to `:destination` at `:now`: not sent,
    /// not backing off, and, for an edit, after the revision it replaces
    /// has reached the server (or was never queued, as before revisions).
    private static let isDue = """
        state <> 'sent' AND (nextAttemptAt IS NULL OR nextAttemptAt <= :now) AND destination IS :destination
            AND (predecessor IS NULL OR NOT EXISTS (
                SELECT 1 FROM delivery AS p WHERE p.instanceID = delivery.predecessor AND p.state <> 'sent'))
        """

    // MARK: - Inside the store's transactions

    /// Queues a newly stored response, in the transaction that stored it.
    /// Its `source` is `form`: `survey` named the built-in survey's own
    /// table until migration v7.
    /// An edit waits for `predecessor`, the revision it replaces.
    static func enqueue(
        _ db: Database, instanceID: String, responseID: Int64, destination: DeliveryDestination = .sharedServer,
        predecessor: String? = nil, at time: Date = Date()
    ) throws {
        var submission: String?
        var publicKey: String?
        if case .openRosa(_, let xml, let key) = destination { (submission, publicKey) = (xml, key) }
        try db.execute(sql: """
            INSERT INTO delivery (instanceID, source, responseID, state, queuedAt, destination, submission, predecessor, publicKey)
            VALUES (?, 'form', ?, 'waiting', ?, ?, ?, ?, ?)
            ON CONFLICT (instanceID) DO UPDATE SET source = excluded.source, responseID = excluded.responseID
            """, arguments: [instanceID, responseID, time, destination.server, submission, predecessor, publicKey])
    }

    /// The outbox's tables, and every response stored before them queued.
    static func createOutbox(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE store_info (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)")
        try db.execute(sql: "INSERT INTO store_info (key, value) VALUES ('device_id', ?)",
                       arguments: [UUID().uuidString.lowercased()])
        try db.execute(sql: """
            CREATE TABLE delivery (
                instanceID TEXT PRIMARY KEY NOT NULL,
                source TEXT NOT NULL CHECK (source IN ('survey', 'form')),
                responseID INTEGER NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('waiting', 'sending', 'sent', 'failed')),
                attempts INTEGER NOT NULL DEFAULT 0,
                lastError TEXT,
                nextAttemptAt DATETIME,
                queuedAt DATETIME NOT NULL,
                sentAt DATETIME
            )
            """)
        try db.execute(sql: "CREATE INDEX delivery_due ON delivery (state, queuedAt)")
        try db.execute(sql: "CREATE INDEX delivery_response ON delivery (source, responseID)")
        // The server knows a response by its instance id; the ones stored
        // before instance ids existed get theirs now.
        let unnamed = try Int64.fetchAll(db, sql: "SELECT id FROM response WHERE instanceID IS NULL")
        for id in unnamed {
            try db.execute(sql: "UPDATE response SET instanceID = ? WHERE id = ?",
                           arguments: [FormEnvironment.randomInstanceID(), id])
        }
        let now = Date()
        try db.execute(sql: """
            INSERT INTO delivery (instanceID, source, responseID, state, queuedAt)
            SELECT instanceID, 'survey', id, 'waiting', ? FROM response ORDER BY id
            """, arguments: [now])
        try db.execute(sql: """
            INSERT INTO delivery (instanceID, source, responseID, state, queuedAt)
            SELECT instanceID, 'form', id, 'waiting', ? FROM form_response ORDER BY id
            """, arguments: [now])
    }

    private static func delivery(from row: Row) -> Delivery {
        Delivery(
            instanceID: row["instanceID"],
            state: DeliveryState(rawValue: row["state"]) ?? .waiting,
            attempts: row["attempts"],
            lastError: row["lastError"],
            nextAttemptAt: row["nextAttemptAt"],
            sentAt: row["sentAt"]
        )
    }
}

/// Answers as the server stores them: one JSON object keyed by path, in
/// form order; numbers as numbers and acknowledgements as booleans, where
/// the form's types say so, every other answer as its text.
public enum AnswersJSON {
    public static func text(of answers: [FormResponse.Answer]) -> String {
        JSONValue.object(answers.map { answer in (answer.path, value(of: answer)) }).text
    }

    private static func value(of answer: FormResponse.Answer) -> JSONValue {
        switch answer.kind {
        case .number:
            guard !answer.value.isEmpty else { return .null }
            guard let number = Double(answer.value), number.isFinite else { return .string(answer.value) }
            return .number(number)
        case .boolean:
            return .bool(answer.value == "OK")
        case .attachment, nil:
            return .string(answer.value)
        }
    }

    /// The answers in `json` as a form stores them, in key order: a number
    /// as its text, `true` as `OK` and `false` as blank (their kinds kept),
    /// `null` and anything else as blank.
    public static func formAnswers(from json: String) -> [FormResponse.Answer] {
        guard let object = try? JSONDecoder().decode([String: Member].self, from: Data(json.utf8)) else { return [] }
        return object.keys.sorted().map { key in
            switch object[key]! {
            case .text(let text): FormResponse.Answer(path: key, value: text)
            case .number(let text): FormResponse.Answer(path: key, value: text, kind: .number)
            case .boolean(let value): FormResponse.Answer(path: key, value: value ? "OK" : "", kind: .boolean)
            case .null: FormResponse.Answer(path: key, value: "")
            }
        }
    }

    /// One member of the object, as read back.
    private enum Member: Decodable {
        case text(String)
        case number(String)
        case boolean(Bool)
        case null

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .boolean(value)
            } else if let value = try? container.decode(Decimal.self) {
                self = .number(CSVFile.number(NSDecimalNumber(decimal: value).doubleValue))
            } else if let value = try? container.decode(String.self) {
                self = .text(value)
            } else {
                self = .text("")
            }
        }
    }
}
