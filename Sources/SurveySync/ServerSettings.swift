import FormEngine
import Foundation
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
    /// A PEM file of the authority that signed the server's certificate,
    /// trusted besides the system's (a server with a certificate of its
    /// organisation's own); empty for the system's alone.
    public var certificateAuthority: String

    public static let defaultPort = 5432

    public init(host: String, port: Int = ServerSettings.defaultPort, database: String, user: String,
                security: Security = .verifyFull, certificateAuthority: String = "") {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
        self.security = security
        self.certificateAuthority = certificateAuthority
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
        if security == .verifyFull, !certificateAuthority.isEmpty,
           !FileManager.default.isReadableFile(atPath: certificateAuthority) {
            return tr("The certificate authority file %@ cannot be read.", certificateAuthority)
        }
        return nil
    }

    /// Why the password kept in the keyring may not be sent with these
    /// settings, or `nil`: a connection that does not check the server's
    /// certificate hands it to whoever answers.
    public var storedPasswordProblem: String? {
        guard security == .insecure else { return nil }
        return String(format: tr("The password kept in the keyring is not sent to %@ over a connection that does not check the server's certificate: whoever answered could read it. Check the certificate (name its authority with --ca-file or in Preferences), or type the password for one run with --ask-password."), "\(host):\(port)")
    }

    func connectionConfiguration(password: String?) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch security {
        case .verifyFull:
            // The default client configuration checks the chain against the
            // system's roots and the name against the host.
            var configuration = TLSConfiguration.makeClientConfiguration()
            if !certificateAuthority.isEmpty {
                configuration.additionalTrustRoots = [.file(certificateAuthority)]
            }
            tls = .require(try NIOSSLContext(configuration: configuration))
        case .insecure:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            tls = .prefer(try NIOSSLContext(configuration: configuration))
        }
        var connection = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls
        )
        connection.options.connectTimeout = .seconds(10)
        // The name checked against the certificate is the host's, which
        // postgres-nio takes by default; an address is checked against the
        // certificate's addresses (it cannot be named in SNI).
        return connection
    }
}
