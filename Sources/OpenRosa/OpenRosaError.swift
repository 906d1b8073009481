import FormEngine
public import Foundation

/// An exchange with an OpenRosa server that did not give what was asked,
/// in words a user can act on, with what kind of failure it was: whether
/// trying again later may help, or the user must do something first.
public struct OpenRosaError: Error, LocalizedError, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No server, or an address that cannot be tried.
        case notConfigured
        /// The server could not be reached, did not answer in time, or the
        /// link broke: trying again later may help.
        case unreachable
        /// The server answered with an error of its own (5xx): later may help.
        case serverFailed
        /// The server wants a login, or turned the one sent down.
        case credentials
        /// The server's certificate could not be checked: no trusted
        /// authority signed it, or the authority's file cannot be read.
        case certificate
        /// What answered is not an OpenRosa server, or said nonsense.
        case notOpenRosa
        /// The server refused the request (4xx other than a login).
        case refused
        /// A file arrived damaged: cut short, or not the file the server
        /// listed (its hash differs).
        case damaged
        /// Something is larger than the client takes from a server, or than
        /// the server takes.
        case tooLarge
        /// The server holds another response under the same instance id,
        /// or a newer revision of the one edited: the user decides.
        case conflict
        /// A file could not be written here (disk full, permissions).
        case local
    }

    public let message: String
    public let kind: Kind

    public init(_ message: String, kind: Kind) {
        self.message = message
        self.kind = kind
    }

    public var errorDescription: String? { message }

    /// Whether the same request may succeed later without the user doing
    /// anything.
    public var isTransient: Bool {
        switch kind {
        // A certificate too: a drive holding the authority's file comes
        // back, a portal in the way goes.
        case .unreachable, .serverFailed, .damaged, .certificate: true
        default: false
        }
    }
}
