import FormEngine
public import Foundation
public import OpenRosa
public import SurveyStorage

/// Delivers the outbox's responses for one OpenRosa server: each as its
/// instance XML with its files (`OpenRosaClient.submit`), oldest first and
/// a few side by side, and marked sent only once the server answered that
/// it stored it. The server
/// keeps a response once by its instance id, so one sent twice (a sender
/// killed between the server's answer and the mark) is stored once.
///
/// A failure of the link or the server ends the round and leaves the
/// responses for later, with the PostgreSQL sender's back-off; a response
/// the server refuses (a conflict, a file too large) is marked with the
/// server's reason and the round goes on with the next.
public struct OpenRosaSender: Sendable {
    public let store: ResponseStore
    public let server: OpenRosaServer
    public let password: String?
    /// Responses claimed, and marked sent, at once.
    public var batchSize = 100
    /// Responses on their way at once, each on a connection of its own: a
    /// server keeps each once whatever the order they arrive in.
    public var parallel = 4
    public var lease: TimeInterval = 300
    /// Called with a response's instance id once the server has stored it
    /// and before the store marks it sent: where a sender killed leaves the
    /// server ahead of the laptop.
    public var onStored: (@Sendable (_ instanceID: String) -> Void)?

    private var attachments: AttachmentStore { AttachmentStore(directory: store.url.deletingLastPathComponent()) }

    public init(store: ResponseStore, server: OpenRosaServer, password: String?) {
        self.store = store
        self.server = server
        self.password = password
    }

    /// Sends every due response for this server (with `ignoringBackoff`,
    /// every one not yet delivered). Never throws: failures are recorded on
    /// the responses they concern, and the one that ended the round returned.
    public func sendDue(ignoringBackoff: Bool = false, now: @escaping @Sendable () -> Date = { Date() }) async -> OutboxSender.Report {
        var report = OutboxSender.Report()
        let destination = server.url.absoluteString
        do {
            if ignoringBackoff { try store.makeAllDue() }
            guard try store.hasDue(at: now(), destination: destination) else { return report }
        } catch {
            report.failure = SyncError(error.localizedDescription, kind: .refused)
            return report
        }
        do {
            try await OpenRosaClient.with(server, password: password) { client in
                // Asked once, before requests go out side by side.
                _ = try await client.acceptedLength()
                while true {
                    let batch = try store.claimBatch(limit: batchSize, now: now(), leaseEnd: now() + lease, destination: destination)
                    if batch.isEmpty { return }
                    let outcomes = await submit(batch, with: client)
                    // Marked sent together (one write, not one per response);
                    // a sender killed before this sends them again, and the
                    // server keeps each once.
                    var stored: [String] = []
                    var ending: (any Error)?
                    var unsent: [OutgoingResponse] = []
                    for (response, outcome) in zip(batch, outcomes) {
                        switch outcome {
                        case .success:
                            onStored?(response.instanceID)
                            stored.append(response.instanceID)
                        case .failure(let error as OpenRosaError) where !error.isTransient && error.kind != .credentials:
                            // This response alone: the rest may go.
                            try? store.markFailed([response.instanceID], reason: error.message,
                                                  retryAt: now() + OutboxSender.backoff(afterAttempt: .max))
                            report.failure = SyncError(error.message, kind: .refused)
                        case .failure(let error):
                            ending = ending ?? error
                            unsent.append(response)
                        case nil:
                            unsent.append(response)
                        }
                    }
                    if (try? store.markSent(stored)) != nil { report.sent += stored.count }
                    if let ending {
                        try? store.markFailed(unsent.map(\.instanceID), reason: ending.localizedDescription,
                                              retryAt: now() + OutboxSender.backoff(afterAttempt: unsent.map(\.attempts).max() ?? 1))
                        throw ending
                    }
                }
            }
        } catch let error as OpenRosaError {
            let kind: SyncError.Kind = switch error.kind {
            case .credentials: .refusedLogin
            case .certificate: .certificate
            default: .unreachable
            }
            report.failure = SyncError(error.message, kind: kind)
        } catch {
            report.failure = SyncError(error.localizedDescription, kind: .refused)
        }
        return report
    }

    /// Sends `batch`, `parallel` responses at a time, and returns each
    /// one's outcome in the batch's order: nil for those not tried because
    /// a failure of the link, the server or the login ended the round.
    private func submit(_ batch: [OutgoingResponse], with client: OpenRosaClient) async -> [Result<Void, any Error>?] {
        await withTaskGroup(of: (Int, Result<Void, any Error>).self) { group in
            var outcomes = [Result<Void, any Error>?](repeating: nil, count: batch.count)
            var next = 0
            var ending = false
            func start() {
                let index = next
                next += 1
                let response = batch[index]
                group.addTask {
                    do {
                        try await client.submit(submission(of: response))
                        return (index, .success(()))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            while next < min(parallel, batch.count) { start() }
            for await (index, outcome) in group {
                outcomes[index] = outcome
                if case .failure(let error) = outcome,
                   !((error as? OpenRosaError).map { !$0.isTransient && $0.kind != .credentials } ?? false) {
                    ending = true
                }
                if !ending, next < batch.count { start() }
            }
            return outcomes
        }
    }

    private func submission(of response: OutgoingResponse) throws -> Submission {
        guard let xml = response.submission else {
            throw OpenRosaError(tr("Response %@ has no instance XML to send.", response.instanceID), kind: .local)
        }
        let files = try response.attachmentNames.map { name in
            guard let url = attachments.url(of: name, instanceID: response.instanceID) else {
                throw OpenRosaError(tr("The file %@ of response %@ is missing.", name, response.instanceID), kind: .local)
            }
            return url
        }
        var submission = Submission(instanceID: response.instanceID, xml: Data(xml.utf8), attachments: files, deprecatedID: response.deprecatedID)
        if let publicKey = response.publicKey {
            submission.envelope = try envelope(of: response, publicKey: publicKey, submission: submission)
        }
        return submission
    }

    /// The envelope a response of an encrypted form goes in: the one its
    /// first try made and kept, else a new one, kept before it is sent.
    private func envelope(of response: OutgoingResponse, publicKey: String, submission: Submission) throws -> SubmissionEnvelope {
        func decoded(_ kept: Data) throws -> SubmissionEnvelope {
            guard let envelope = try? JSONDecoder().decode(SubmissionEnvelope.self, from: kept) else {
                throw OpenRosaError(tr("The encrypted envelope kept for response %@ cannot be read.", response.instanceID), kind: .local)
            }
            return envelope
        }
        if let kept = response.envelope { return try decoded(kept) }
        var files: [(name: String, data: Data)] = []
        for file in submission.attachments {
            guard let data = try? Data(contentsOf: file) else {
                throw OpenRosaError(tr("The file %@ of response %@ cannot be read.", file.lastPathComponent, response.instanceID), kind: .local)
            }
            files.append((file.lastPathComponent, data))
        }
        let envelope = try SubmissionEnvelope.seal(
            publicKey: publicKey, formID: response.formID, version: response.formVersion, instanceID: response.instanceID,
            xml: submission.xml, files: files
        )
        // Another try may have kept its own first: the kept one is sent.
        let encoded = try JSONEncoder().encode(envelope)
        let kept = try store.keepEnvelope(encoded, for: response.instanceID)
        return kept == encoded ? envelope : try decoded(kept)
    }
}
