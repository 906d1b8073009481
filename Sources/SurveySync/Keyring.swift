import FormEngine
import CSecret
import Foundation

/// The server's password in the desktop keyring (the Secret Service, through
/// libsecret), keyed by server, port, database and user; never in a file.
///
/// The calls block on D-Bus; the app makes them off the main thread.
public enum Keyring {
    /// The password stored for `settings`, or `nil` when none is. A stored
    /// password is refused to settings that do not check the server's
    /// certificate (`storedPasswordProblem`).
    public static func password(for settings: ServerSettings) throws -> String? {
        let stored = try withAttributes(settings) { schema, attributes -> String? in
            var error: UnsafeMutablePointer<GError>?
            let found = secret_password_lookupv_sync(schema, attributes, nil, &error)
            if let error { throw failure(error, tr("Could not read the password from the keyring: %@")) }
            guard let found else { return nil }
            defer { secret_password_free(found) }
            return String(cString: found)
        }
        if stored != nil, let problem = settings.storedPasswordProblem {
            throw SyncError(problem, kind: .notConfigured)
        }
        return stored
    }

    /// Stores `password` for `settings`, replacing any stored before.
    public static func store(_ password: String, for settings: ServerSettings) throws {
        try withAttributes(settings) { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            let label = "Survey Form: " + settings.displayName
            let stored = secret_password_storev_sync(schema, attributes, nil, label, password, nil, &error)
            if let error { throw failure(error, tr("Could not store the password in the keyring: %@")) }
            if stored == 0 {
                throw SyncError(tr("The keyring did not store the password."), kind: .notConfigured)
            }
        }
    }

    /// Forgets the password stored for `settings`.
    public static func remove(for settings: ServerSettings) throws {
        try withAttributes(settings) { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            _ = secret_password_clearv_sync(schema, attributes, nil, &error)
            if let error { throw failure(error, tr("Could not remove the password from the keyring: %@")) }
        }
    }

    private static func withAttributes<Result>(
        _ settings: ServerSettings,
        _ body: (UnsafePointer<SecretSchema>, OpaquePointer) throws -> Result
    ) throws -> Result {
        let schema = secret_schema_newv(
            "io.github.surveyform.SurveyForm.Server", SECRET_SCHEMA_NONE, schemaAttributes()
        )!
        defer { secret_schema_unref(schema) }
        let attributes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
        defer { g_hash_table_unref(attributes) }
        for (key, value) in [
            ("host", settings.host), ("port", String(settings.port)),
            ("database", settings.database), ("user", settings.user),
        ] {
            g_hash_table_insert(attributes, g_strdup(key), g_strdup(value))
        }
        return try body(UnsafePointer(schema), attributes)
    }

    private static func schemaAttributes() -> OpaquePointer {
        let table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)!
        for key in ["host", "port", "database", "user"] {
            g_hash_table_insert(table, g_strdup(key), UnsafeMutableRawPointer(bitPattern: Int(SECRET_SCHEMA_ATTRIBUTE_STRING.rawValue)))
        }
        return table
    }

    /// `format`, translated, with the error's message in its `%@`.
    private static func failure(_ error: UnsafeMutablePointer<GError>, _ format: String) -> SyncError {
        defer { g_error_free(error) }
        let reason = String(cString: error.pointee.message)
        return SyncError(String(format: format, reason), kind: .notConfigured)
    }
}
