import SurveyModel
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
    /// How long a claimed batch stays claimed before another sender may
    /// take it (a sender killed mid-batch leaves it to the next).
    public var lease: TimeInterval = 120
    /// How long a round may go without storing a batch before the server
    /// counts as not answering (shorter than the lease).
    public var answerDeadline: Duration = .seconds(90)

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
        var report = Report()
        var batch: [OutgoingResponse]
        do {
            if ignoringBackoff { try store.makeAllDue() }
            batch = try store.claimBatch(limit: batchSize, now: now(), leaseEnd: now() + lease)
        } catch {
            report.failure = SyncError(error.localizedDescription, kind: .refused)
            return report
        }
        guard !batch.isEmpty else { return report }
        // What the work on the connection has done, read back also when the
        // work was given up with the link broken under it.
        let round = Mutex((batch: batch, report: report))
        do {
            let deviceID = try store.deviceID()
            try await ServerConnection.with(settings, password: password, deadline: answerDeadline) { [self] connection in
                try await ServerSchema.requireCurrent(connection, settings: settings)
                while case let batch = round.withLock({ $0.batch }), !batch.isEmpty {
                    // The next batch is read from the store while the server
                    // takes this one: neither waits on the other.
                    let claiming = Task { try store.claimBatch(limit: batchSize, now: now(), leaseEnd: now() + lease) }
                    let part: Report
                    do {
                        part = try await send(batch, deviceID: deviceID, on: connection)
                    } catch {
                        // Claimed meanwhile, so failed with this batch.
                        let next = (try? await claiming.value) ?? []
                        round.withLock { $0.batch = batch + next }
                        throw error
                    }
                    let next = try await claiming.value
                    ServerConnection.progressed(on: connection)
                    round.withLock { round in
                        round.report.sent += part.sent
                        round.report.failure = part.failure ?? round.report.failure
                        round.batch = next
                    }
                }
            }
            report = round.withLock { $0.report }
        } catch {
            let failure = SyncError(error, settings: settings)
            (batch, report) = round.withLock { ($0.batch, $0.report) }
            report.failure = failure
            try? store.markFailed(batch.map(\.instanceID), reason: failure.message,
                                  retryAt: now() + Self.backoff(afterAttempt: batch.map(\.attempts).max() ?? 1))
        }
        return report
    }

    /// Sends `batch`; when the server refuses it as a whole, sends its
    /// responses one by one, so that one the server cannot take holds up
    /// no other and carries the server's own reason.
    private func send(_ batch: [OutgoingResponse], deviceID: String, on connection: PostgresConnection) async throws -> Report {
        var report = Report()
        do {
            try await insert(batch, deviceID: deviceID, on: connection)
            try store.markSent(batch.map(\.instanceID))
            report.sent += batch.count
        } catch {
            let failure = SyncError(error, settings: settings)
            guard failure.kind == .refused, batch.count > 1 else { throw failure }
            for response in batch {
                do {
                    try await insert([response], deviceID: deviceID, on: connection)
                    try store.markSent([response.instanceID])
                    report.sent += 1
                } catch {
                    let failure = SyncError(error, settings: settings)
                    guard failure.kind == .refused else { throw failure }
                    report.failure = failure
                    try store.markFailed([response.instanceID], reason: failure.message,
                                         retryAt: Date() + Self.backoff(afterAttempt: response.attempts))
                }
            }
        }
        return report
    }

    /// One transaction: the batch's record, then its responses, each kept
    /// only if the server has no response with its instance id.
    private func insert(_ batch: [OutgoingResponse], deviceID: String, on connection: PostgresConnection) async throws {
        let logger = ServerConnection.logger
        let batchID = UUID()
        let instanceIDs = batch.map(\.instanceID)
        let formIDs = batch.map(\.formID)
        let versions = batch.map(\.formVersion)
        // Seconds since 1970, NaN for none: cheaper to write and to read
        // than text, and as exact as the server keeps them (microseconds).
        let started = batch.map { $0.startedAt?.timeIntervalSince1970 ?? .nan }
        let submitted = batch.map { $0.submittedAt.timeIntervalSince1970 }
        let answers = batch.map(\.answersJSON)
        let count = batch.count
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("""
                INSERT INTO survey_form.batches (batch_id, device_id, responses) VALUES (\(batchID), \(deviceID), \(count))
                """, logger: logger)
            try await connection.query("""
                INSERT INTO survey_form.submissions
                    (instance_id, form_id, form_version, device_id, started_at, submitted_at, batch_id, answers)
                SELECT i, f, v, \(deviceID), to_timestamp(NULLIF(s, 'NaN')), to_timestamp(t), \(batchID), a::jsonb
                FROM unnest(\(instanceIDs)::text[], \(formIDs)::text[], \(versions)::text[],
                            \(started)::float8[], \(submitted)::float8[], \(answers)::text[]) AS u(i, f, v, s, t, a)
                ON CONFLICT (instance_id) DO NOTHING
                """, logger: logger)
        }
    }

    /// How long to wait before trying a response again after its
    /// `attempt`th try failed: 15 s, doubling to at most 15 minutes.
    public static func backoff(afterAttempt attempt: Int) -> TimeInterval {
        min(15 * pow(2, Double(max(attempt, 1) - 1)), 15 * 60)
    }
}
