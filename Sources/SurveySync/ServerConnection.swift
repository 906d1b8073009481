import FormEngine
import NIOCore
import PostgresNIO
import Synchronization

/// One connection to the server for one piece of work, closed after it.
///
/// A single `PostgresConnection`, not a pool: a pool retries a refused login
/// for a minute and then reports a tripped circuit breaker, hiding the
/// server's reason; a connection fails at once with it.
enum ServerConnection {
    /// postgres-nio's own log, quiet: failures reach the user as `SyncError`s.
    static let logger: Logger = {
        var logger = Logger(label: "survey-form.sync")
        logger.logLevel = .critical
        return logger
    }()

    /// How long work on a connection may go without getting anywhere before
    /// the server counts as not answering. A sender's lease
    /// (`OutboxSender.lease`) outlasts it.
    static let deadline: Duration = .seconds(90)

    /// Work on `connection` calls this when it gets somewhere (a batch
    /// stored, a row read): the deadline counts from the last call, so that
    /// a long queue on a slow link is not cut off while it moves.
    static func progressed(on connection: PostgresConnection) {
        let heartbeat = heartbeats.withLock { $0[ObjectIdentifier(connection)] }
        heartbeat?()
    }

    /// The watched connections' heartbeats, by connection.
    private static let heartbeats = Mutex<[ObjectIdentifier: @Sendable () -> Void]>([:])

    /// How long work may still take to fail by itself once the link closed.
    static let graceAfterClose: Duration = .seconds(2)

    private static let nextID = Mutex(0)

    static func with<Result: Sendable>(
        _ settings: ServerSettings, password: String?, deadline: Duration = deadline,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        if let problem = settings.problem { throw SyncError(problem, kind: .notConfigured) }
        let connection: PostgresConnection
        do {
            let id = nextID.withLock { value in
                value += 1
                return value
            }
            connection = try await PostgresConnection.connect(
                configuration: try settings.connectionConfiguration(password: password), id: id, logger: logger
            )
        } catch {
            throw SyncError(error, settings: settings)
        }
        do {
            let result = try await watched(connection, settings: settings, deadline: deadline, body)
            try? await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw SyncError(error, settings: settings)
        }
    }

    /// Runs `body`, giving it up when the link has closed under it or it has
    /// not got anywhere for `deadline` (see `progressed`): postgres-nio 1.33 leaves a
    /// query waiting for ever when the link breaks while the query is being
    /// written, and a sender must not hang on it. A body given up is left to
    /// its fate; it no longer decides anything.
    private static func watched<Result: Sendable>(
        _ connection: PostgresConnection, settings: ServerSettings, deadline: Duration,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let outcome = Outcome<Result>()
        let server = settings.host + ":" + String(settings.port)
        return try await withCheckedThrowingContinuation { continuation in
            outcome.start(continuation)
            let key = ObjectIdentifier(connection)
            heartbeats.withLock { $0[key] = { outcome.progressed() } }
            outcome.onFinish { _ = heartbeats.withLock { $0.removeValue(forKey: key) } }
            let work = Task {
                do {
                    outcome.finish(.success(try await body(connection)))
                } catch {
                    outcome.finish(.failure(error))
                }
            }
            let timer = Task {
                while case let idle = outcome.idle, idle < deadline {
                    try await Task.sleep(for: deadline - idle)
                }
                if outcome.finish(.failure(SyncError(
                    tr("The server %@ did not answer in time.", server), kind: .unreachable
                ))) {
                    work.cancel()
                }
            }
            outcome.onFinish { timer.cancel() }
            connection.closeFuture.whenComplete { _ in
                Task {
                    try await Task.sleep(for: graceAfterClose)
                    if outcome.finish(.failure(SyncError(
                        tr("The connection to %@ broke before the server answered.", server), kind: .unreachable
                    ))) {
                        work.cancel()
                    }
                }
            }
        }
    }

    /// The first of the work's end, the deadline and the broken link.
    private final class Outcome<Result: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Result, any Error>?
            var finished = false
            var lastProgress = ContinuousClock.now
            var onFinish: [@Sendable () -> Void] = []
        }
        private let state = Mutex(State())

        func start(_ continuation: CheckedContinuation<Result, any Error>) {
            state.withLock { $0.continuation = continuation }
        }

        func progressed() {
            state.withLock { $0.lastProgress = ContinuousClock.now }
        }

        /// How long since the work last got somewhere (or started).
        var idle: Duration {
            ContinuousClock.now - state.withLock { $0.lastProgress }
        }

        func onFinish(_ action: @escaping @Sendable () -> Void) {
            let runNow = state.withLock { state -> Bool in
                if state.finished { return true }
                state.onFinish.append(action)
                return false
            }
            if runNow { action() }
        }

        /// Whether this was the first end (the one that counts).
        @discardableResult
        func finish(_ result: Swift.Result<Result, any Error>) -> Bool {
            let taken = state.withLock { state -> (CheckedContinuation<Result, any Error>, [@Sendable () -> Void])? in
                guard !state.finished, let continuation = state.continuation else { return nil }
                state.finished = true
                state.continuation = nil
                defer { state.onFinish = [] }
                return (continuation, state.onFinish)
            }
            guard let (continuation, actions) = taken else { return false }
            continuation.resume(with: result)
            for action in actions { action() }
            return true
        }
    }
}
