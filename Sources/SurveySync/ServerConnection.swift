import SurveyModel
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

    private static let nextID = Mutex(0)

    static func with<Result: Sendable>(
        _ settings: ServerSettings, password: String?,
        _ body: (PostgresConnection) async throws -> Result
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
            let result = try await body(connection)
            try? await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw SyncError(error, settings: settings)
        }
    }
}
