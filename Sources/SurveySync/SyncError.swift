import FormEngine
public import Foundation
import NIOCore
import NIOSSL
import PostgresNIO

/// A delivery that did not happen, with a message fit to show the user and
/// whether the server itself refused (rather than could not be reached).
public struct SyncError: Error, LocalizedError, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No server, or settings that cannot be tried.
        case notConfigured
        /// The server could not be reached, or the link broke.
        case unreachable
        /// The server turned the login down (user, password, TLS).
        case refusedLogin
        /// A form server's certificate could not be checked: no trusted
        /// authority signed it, or the authority's file cannot be read.
        case certificate
        /// The server's schema is missing or older than this version needs.
        case schema
        /// The server refused what was sent.
        case refused
    }

    public let message: String
    public let kind: Kind

    public init(_ message: String, kind: Kind) {
        self.message = message
        self.kind = kind
    }

    public var errorDescription: String? { message }

    /// `error` from connecting or from a query, in words a user can act on:
    /// the server's own message where it gave one.
    init(_ error: any Error, settings: ServerSettings) {
        if let error = error as? SyncError {
            self = error
            return
        }
        if let error = error as? PostgresTransactionError {
            self.init(error.closureError ?? error.commitError ?? error.beginError ?? error.rollbackError ?? error,
                      settings: settings)
            return
        }
        let server = settings.host + ":" + String(settings.port)
        if let reason = Self.tlsReason(error) {
            self.init(tr("The secure connection to %@ failed: %@", server, reason), kind: .refusedLogin)
            return
        }
        guard let error = error as? PSQLError else {
            self.init(tr("The server %@ cannot be reached: %@", server, String(describing: error)), kind: .unreachable)
            return
        }
        if let info = error.serverInfo, let message = info[.message] {
            let state = info[.sqlState] ?? ""
            switch state {
            case "28P01", "28000":
                self.init(tr("The server %@ refused the login of %@: %@", server, settings.user, message), kind: .refusedLogin)
            case "3D000", "42P01", "3F000":
                self.init(tr("The server %@ is not set up for Survey Form: %@", server, message), kind: .schema)
            case "42501":
                self.init(tr("The login %@ may not do this on the server %@: %@", settings.user, server, message), kind: .refused)
            case "57P01", "57P02", "57P03", "08006", "08003", "08001":
                self.init(tr("The server %@ closed the connection: %@", server, message), kind: .unreachable)
            default:
                self.init(tr("The server %@ refused: %@ (%@)", server, message, state), kind: .refused)
            }
            return
        }
        switch error.code {
        case .sslUnsupported:
            self.init(tr("The server %@ does not offer a secure connection, which these settings require.", server), kind: .refusedLogin)
        case .authMechanismRequiresPassword:
            self.init(tr("The server %@ asks for a password, and none is stored for %@.", server, settings.user), kind: .refusedLogin)
        case .serverClosedConnection, .uncleanShutdown:
            self.init(tr("The connection to %@ broke before the server answered.", server), kind: .unreachable)
        case .connectionError:
            let reason = error.underlying.map { Self.describe($0) } ?? String(describing: error.code)
            self.init(tr("The server %@ cannot be reached: %@", server, reason), kind: .unreachable)
        default:
            let reason = error.underlying.map { Self.describe($0) } ?? String(describing: error.code)
            self.init(tr("The connection to %@ broke: %@", server, reason), kind: .unreachable)
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return error.description }
        return String(describing: error)
    }

    /// Why TLS failed, when `error` (or what postgres-nio wrapped) is TLS's.
    private static func tlsReason(_ error: any Error) -> String? {
        let error = (error as? PSQLError)?.underlying ?? error
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") || error is NIOSSLExtraError {
            return tr("its certificate is not trusted or does not name it. If the server's certificate comes from an authority of your organisation, set that authority's file in Preferences (or with --ca-file)")
        }
        if error is NIOSSLError || error is BoringSSLError { return text }
        return nil
    }
}
