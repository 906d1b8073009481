import FormEngine
public import Foundation
public import SurveyStorage
import PostgresNIO
import Synchronization

/// Delivers the outbox to the server: due responses in batches, each batch
/// in one server transaction that records the batch and inserts its
/// responses by instance id, skipping any the server holds already. The
/// local store marks a batch sent only after the commit was acknowledged;
/// a link that breaks between the two leaves the batch to be sent again,
/// which stores nothing twice.
///
/// Runs wherever it is awaited (never on the main thread in the app); the
/// store's writes are short transactions of their own.
public struct OutboxSender: Sendable {
    public let store: ResponseStore
    public let settings: ServerSettings
    public let password: String?
    /// Responses per server transaction.
    public var batchSize = 1000
    /// The answers' bytes (as JSON) per server transaction: a thousand long
    /// texts would otherwise make one statement of hundreds of megabytes.
    public var batchBytes = 8 << 20
    /// How long a claimed batch stays claimed before another sender may
    /// take it (a sender killed mid-batch leaves it to the next).
    public var lease: TimeInterval = 120
    /// How long a round may go without storing a batch before the server
    /// counts as not answering (shorter than the lease).
    public var answerDeadline: Duration = .seconds(90)
    /// Called with a batch's instance ids once the server has committed it
    /// and before the store marks it sent: the point where a sender killed
    /// leaves the server ahead of the laptop. For progress, and for tests
    /// that stop a sender exactly there.
    public var onBatchStored: (@Sendable (_ instanceIDs: [String]) -> Void)?

    /// Where the responses' files are: beside the store's database.
    private var attachments: AttachmentStore { AttachmentStore(directory: store.url.deletingLastPathComponent()) }

    public init(store: ResponseStore, settings: ServerSettings, password: String?) {
        self.store = store
        self.settings = settings
        self.password = password
    }

    /// What one round of sending did.
    public struct Report: Sendable, Equatable {
        /// Responses the server now holds (new to it or not).
        public var sent = 0
        /// The failure that ended the round, if one did.
        public var failure: SyncError?
    }

    /// Sends every due response (with `ignoringBackoff`, every response not
    /// yet delivered: also those waiting out a retry or left claimed by a
    /// sender that was killed), until the outbox has none left or a try
    /// fails. Never throws: a failure is recorded on the responses it
    /// concerns, with when to try again, and returned.
    public func sendDue(ignoringBackoff: Bool = false, now: @escaping @Sendable () -> Date = { Date() }) async -> Report {
        var report = await sendRound(ignoringBackoff: ignoringBackoff, now: now)
        // An edit becomes due once the revision it replaces is marked sent,
        // which may be after the round claimed its last batch: another round
        // takes it. Each round sends something or ends this.
        while report.failure == nil, report.sent > 0 {
            let more = await sendRound(ignoringBackoff: false, now: now)
            guard more.sent > 0 || more.failure != nil else { break }
            report.sent += more.sent
            report.failure = more.failure
        }
        return report
    }

    private func sendRound(ignoringBackoff: Bool, now: @escaping @Sendable () -> Date) async -> Report {
        var report = Report()
        do {
            if ignoringBackoff { try store.makeAllDue() }
            // Asked first, so that an empty outbox opens no connection.
            guard try store.hasDue(at: now()) else { return report }
        } catch {
            report.failure = SyncError(error.localizedDescription, kind: .refused)
            return report
        }
        // The first batch is read while the connection is made.
        let first = Task { try store.claimBatch(limit: batchSize, maxBytes: batchBytes, now: now(), leaseEnd: now() + lease) }
        // What the work on the connection has done, read back also when the
        // work was given up with the link broken under it: the responses
        // claimed and not yet stored (nil until the first batch is taken).
        let round = Mutex((batch: [OutgoingResponse]?.none, report: report))
        do {
            let deviceID = try store.deviceID()
            try await ServerConnection.with(settings, password: password, deadline: answerDeadline) { [self] connection in
                try await ServerSchema.requireCurrent(connection, settings: settings)
                let claimed = try await first.value
                round.withLock { $0.batch = claimed }
                // Three stages, each overlapping the others: while the
                // server stores one batch, the next is read from the store
                // and made ready to send, and the one before is marked sent.
                var ready = Batch(claimed, deviceID: deviceID, attachments: attachments)
                var marking: Task<Void, any Error>?
                while !ready.responses.isEmpty {
                    let claiming = Task {
                        Batch(try store.claimBatch(limit: batchSize, maxBytes: batchBytes, now: now(), leaseEnd: now() + lease),
                              deviceID: deviceID, attachments: attachments)
                    }
                    let part: Report
                    let sent: [String]
                    do {
                        (part, sent) = try await send(ready, deviceID: deviceID, on: connection)
                    } catch {
                        // Claimed meanwhile, so failed with this batch.
                        let next = (try? await claiming.value)?.responses ?? []
                        round.withLock { $0.batch = ready.responses + next }
                        try? await marking?.value
                        throw error
                    }
                    ServerConnection.progressed(on: connection)
                    onBatchStored?(sent)
                    // Marked one batch after another, never two at once: a
                    // failure to mark ends the round and is reported.
                    marking = Task { [marking] in
                        try await marking?.value
                        try store.markSent(sent)
                    }
                    ready = try await claiming.value
                    round.withLock { round in
                        round.report.sent += part.sent
                        round.report.failure = part.failure ?? round.report.failure
                        round.batch = ready.responses
                    }
                }
                try await marking?.value
            }
            report = round.withLock { $0.report }
        } catch {
            let taken: [OutgoingResponse]?
            (taken, report) = round.withLock { ($0.batch, $0.report) }
            let batch: [OutgoingResponse]
            if let taken {
                batch = taken
            } else {
                do {
                    batch = try await first.value
                } catch {
                    // The store could not be read: nothing was claimed.
                    report.failure = SyncError(error.localizedDescription, kind: .refused)
                    return report
                }
            }
            let failure = SyncError(error, settings: settings)
            report.failure = failure
            try? store.markFailed(batch.map(\.instanceID), reason: failure.message,
                                  retryAt: now() + Self.backoff(afterAttempt: batch.map(\.attempts).max() ?? 1))
        }
        return report
    }

    /// A batch made ready to send: its responses, and the statement that
    /// stores it with its values already encoded.
    private struct Batch: Sendable {
        var responses: [OutgoingResponse]
        var statement: PostgresQuery

        init(_ responses: [OutgoingResponse], deviceID: String, attachments: AttachmentStore) {
            self.responses = responses
            // Each file the answers name, read now, off the connection's
            // time; one that is gone is left out, and its answer keeps its name.
            var fileInstances: [String] = []
            var fileNames: [String] = []
            var fileContents: [ByteBuffer] = []
            for response in responses {
                for name in response.attachmentNames {
                    guard let data = attachments.contents(of: name, instanceID: response.instanceID) else { continue }
                    fileInstances.append(response.instanceID)
                    fileNames.append(name)
                    fileContents.append(ByteBuffer(bytes: data))
                }
            }
            let batchID = UUID()
            let count = responses.count
            let instanceIDs = responses.map(\.instanceID)
            let formIDs = responses.map(\.formID)
            let versions = responses.map(\.formVersion)
            // Seconds since 1970, NaN for none: cheaper to write and to read
            // than text, and as exact as the server keeps them (microseconds).
            let started = responses.map { $0.startedAt?.timeIntervalSince1970 ?? .nan }
            let submitted = responses.map { $0.submittedAt.timeIntervalSince1970 }
            let answers = responses.map(\.answersJSON)
            // Blank for none: the array is text, and NULLIF makes it NULL.
            let deprecated = responses.map { $0.deprecatedID ?? "" }
            // One statement is one transaction: the batch's record and its
            // responses are stored together or not at all, in one round
            // trip, not the four that BEGIN … COMMIT would take. Each
            // response is kept only if the server has none with its
            // instance id.
            // A response's files go in only with the response itself: one the
            // server held already (a batch sent again) brought its files then.
            statement = """
                WITH batch AS (
                    INSERT INTO survey_form.batches (batch_id, device_id, responses)
                    VALUES (\(batchID), \(deviceID), \(count))
                ), stored AS (
                    INSERT INTO survey_form.submissions
                        (instance_id, form_id, form_version, device_id, started_at, submitted_at, batch_id, answers, deprecated_id)
                    SELECT i, f, v, \(deviceID), to_timestamp(NULLIF(s, 'NaN')), to_timestamp(t), \(batchID), a::jsonb, NULLIF(d, '')
                    FROM unnest(\(instanceIDs)::text[], \(formIDs)::text[], \(versions)::text[],
                                \(started)::float8[], \(submitted)::float8[], \(answers)::text[], \(deprecated)::text[])
                        AS u(i, f, v, s, t, a, d)
                    ON CONFLICT (instance_id) DO NOTHING
                    RETURNING instance_id
                )
                INSERT INTO survey_form.attachments (instance_id, name, content)
                SELECT u.i, u.n, u.c
                FROM unnest(\(fileInstances)::text[], \(fileNames)::text[], \(fileContents)::bytea[]) AS u(i, n, c)
                JOIN stored ON stored.instance_id = u.i
                """
        }
    }

    /// Sends `batch` and returns the instance ids the server now holds, to
    /// be marked sent; when the server refuses the batch as a whole, sends
    /// its responses one by one, so that one the server cannot take holds
    /// up no other and carries the server's own reason.
    private func send(_ batch: Batch, deviceID: String, on connection: PostgresConnection) async throws -> (Report, sent: [String]) {
        var report = Report()
        do {
            try await insert(batch, on: connection)
            report.sent = batch.responses.count
            return (report, batch.responses.map(\.instanceID))
        } catch {
            let failure = SyncError(error, settings: settings)
            guard failure.kind == .refused, batch.responses.count > 1 else { throw failure }
            var sent: [String] = []
            for response in batch.responses {
                do {
                    try await insert(Batch([response], deviceID: deviceID, attachments: attachments), on: connection)
                    sent.append(response.instanceID)
                    report.sent += 1
                } catch {
                    let failure = SyncError(error, settings: settings)
                    guard failure.kind == .refused else { throw failure }
                    report.failure = failure
                    try store.markFailed([response.instanceID], reason: failure.message,
                                         retryAt: Date() + Self.backoff(afterAttempt: response.attempts))
                }
            }
            return (report, sent)
        }
    }

    private func insert(_ batch: Batch, on connection: PostgresConnection) async throws {
        try await connection.query(batch.statement, logger: ServerConnection.logger)
    }

    /// How long to wait before trying a response again after its
    /// `attempt`th try failed: 15 s, doubling to at most 15 minutes.
    public static func backoff(afterAttempt attempt: Int) -> TimeInterval {
        min(15 * pow(2, Double(max(attempt, 1) - 1)), 15 * 60)
    }
}
