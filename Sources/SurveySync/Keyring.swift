import FormEngine
import CSecret
import Foundation
public import OpenRosa

/// Server passwords in the desktop keyring (the Secret Service, through
/// libsecret); never in a file. The shared server's is keyed by host, port,
/// database and user; an OpenRosa server's by a digest of its address (which
/// may hold a key: the keyring's attributes are not secret) and the user.
///
/// The calls block on D-Bus; the app makes them off the main thread.
public enum Keyring {
    /// The password stored for `settings`, or `nil` when none is. A stored
    /// password is refused to settings that do not check the server's
    /// certificate (`storedPasswordProblem`).
    public static func password(for settings: ServerSettings) throws -> String? {
        let stored = try lookup(Entry(settings))
        if stored != nil, let problem = settings.storedPasswordProblem {
            throw SyncError(problem, kind: .notConfigured)
        }
        return stored
    }

    /// Stores `password` for `settings`, replacing any stored before.
    public static func store(_ password: String, for settings: ServerSettings) throws {
        try store(password, Entry(settings))
    }

    /// Forgets the password stored for `settings`.
    public static func remove(for settings: ServerSettings) throws {
        try remove(Entry(settings))
    }

    /// The password stored for `server`'s user, or `nil`: none for a server
    /// without a user (an address with a key needs none).
    public static func password(forOpenRosa server: OpenRosaServer) throws -> String? {
        guard !server.user.isEmpty else { return nil }
        return try lookup(Entry(server))
    }

    /// Stores `password` for `server`'s user, replacing any stored before.
    public static func store(_ password: String, forOpenRosa server: OpenRosaServer) throws {
        try store(password, Entry(server))
    }

    /// A keyring item's schema, attributes and label.
    private struct Entry {
        var schema: String
        var attributes: [(String, String)]
        var label: String

        init(_ settings: ServerSettings) {
            schema = "io.github.surveyform.SurveyForm.Server"
            attributes = [
                ("host", settings.host), ("port", String(settings.port)),
                ("database", settings.database), ("user", settings.user),
            ]
            label = "Survey Form: " + settings.displayName
        }

        init(_ server: OpenRosaServer) {
            schema = "io.github.surveyform.SurveyForm.OpenRosa"
            attributes = [("server", server.addressDigest), ("user", server.user)]
            label = "Survey Form: " + server.user + " @ " + server.displayName
        }
    }

    private static func lookup(_ entry: Entry) throws -> String? {
        try withAttributes(entry) { schema, attributes -> String? in
            var error: UnsafeMutablePointer<GError>?
            let found = secret_password_lookupv_sync(schema, attributes, nil, &error)
            if let error { throw failure(error, tr("Could not read the password from the keyring: %@")) }
            guard let found else { return nil }
            defer { secret_password_free(found) }
            return String(cString: found)
        }
    }

    private static func store(_ password: String, _ entry: Entry) throws {
        try withAttributes(entry) { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            let stored = secret_password_storev_sync(schema, attributes, nil, entry.label, password, nil, &error)
            if let error { throw failure(error, tr("Could not store the password in the keyring: %@")) }
            if stored == 0 {
                throw SyncError(tr("The keyring did not store the password."), kind: .notConfigured)
            }
        }
    }

    private static func remove(_ entry: Entry) throws {
        try withAttributes(entry) { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            _ = secret_password_clearv_sync(schema, attributes, nil, &error)
            if let error { throw failure(error, tr("Could not remove the password from the keyring: %@")) }
        }
    }

    private static func withAttributes<Result>(
        _ entry: Entry,
        _ body: (UnsafePointer<SecretSchema>, OpaquePointer) throws -> Result
    ) throws -> Result {
        let kinds = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)!
        for (key, _) in entry.attributes {
            g_hash_table_insert(kinds, g_strdup(key), UnsafeMutableRawPointer(bitPattern: Int(SECRET_SCHEMA_ATTRIBUTE_STRING.rawValue)))
        }
        defer { g_hash_table_unref(kinds) }
        let schema = secret_schema_newv(entry.schema, SECRET_SCHEMA_NONE, kinds)!
        defer { secret_schema_unref(schema) }
        let attributes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
        defer { g_hash_table_unref(attributes) }
        for (key, value) in entry.attributes {
            g_hash_table_insert(attributes, g_strdup(key), g_strdup(value))
        }
        return try body(UnsafePointer(schema), attributes)
    }

    /// `format`, translated, with the error's message in its `%@`.
    private static func failure(_ error: UnsafeMutablePointer<GError>, _ format: String) -> SyncError {
        defer { g_error_free(error) }
        let reason = String(cString: error.pointee.message)
        return SyncError(String(format: format, reason), kind: .notConfigured)
    }
}
