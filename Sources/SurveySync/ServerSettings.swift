import SurveyModel
public import Foundation
import NIOSSL
import PostgresNIO

/// Where the shared server is and how to reach it. The password is not
/// here: it lives in the desktop keyring (`Keyring`) and is handed in when
/// connecting.
public struct ServerSettings: Sendable, Equatable {
    /// How the connection is protected.
    public enum Security: String, Sendable, Equatable, CaseIterable {
        /// TLS required, the certificate checked against the system's
        /// authorities and the host name (libpq's `verify-full`).
        case verifyFull = "verify-full"
        /// TLS when the server offers it, unchecked; plain otherwise. Only
        /// ever chosen explicitly (`--insecure`): a password crosses the
        /// network unprotected.
        case insecure
    }

    /// The server's host name or address; empty when no server is set.
    public var host: String
    public var port: Int
    public var database: String
    public var user: String
    public var security: Security

    public static let defaultPort = 5432

    public init(host: String, port: Int = ServerSettings.defaultPort, database: String, user: String, security: Security = .verifyFull) {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
        self.security = security
    }

    /// Whether a server is set at all.
    public var isConfigured: Bool { !host.isEmpty && !database.isEmpty && !user.isEmpty }

    /// How the server is named to the user: `user@host:port/database`.
    public var displayName: String { "\(user)@\(host):\(port)/\(database)" }

    /// What is wrong with these settings, or `nil` when they can be tried.
    public var problem: String? {
        if host.isEmpty { return tr("No server is set.") }
        if database.isEmpty { return tr("The server's database is not set.") }
        if user.isEmpty { return tr("The server's user is not set.") }
        if !(1...65_535).contains(port) { return tr("The server's port must be between 1 and 65535.") }
        return nil
    }

    func connectionConfiguration(password: String?) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch security {
        case .verifyFull:
            // The default client configuration checks the chain against the
            // system's roots and the name against the host.
            tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .insecure:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            tls = .prefer(try NIOSSLContext(configuration: configuration))
        }
        var connection = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls
        )
        connection.options.connectTimeout = .seconds(10)
        connection.options.tlsServerName = host
        return connection
    }
}
