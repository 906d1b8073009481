public import CTwoWayBindingGtkShims
public import TwoWayBindingGtk

/// An application's settings in GSettings: typed reads and writes of the
/// keys of its schema, which GNOME keeps per user (dconf) and a Flatpak
/// keeps in the sandbox.
///
/// ```swift
/// guard let settings = SettingsStore(schemaID: "org.example.Greeter") else { … }
/// settings.setInteger("window-width", 960)
/// ```
///
/// A key the schema does not have is a programming error, which GLib
/// reports as a critical; read the schema with `glib-compile-schemas
/// --strict` in the tests to catch it early.
@MainActor
public final class SettingsStore {
    private let settings: UnsafeMutablePointer<GSettings>

    /// The settings of the schema `schemaID`, looked up where GLib installs
    /// schemas (the system, a Flatpak, `GSETTINGS_SCHEMA_DIR`), then in
    /// each of `directories` holding a compiled schema (beside an installed
    /// binary, a build folder). `nil` when none has it.
    public convenience init?(schemaID: String, alsoLookingIn directories: [String] = []) {
        self.init(schemaID: schemaID, alsoLookingIn: directories, backend: nil)
    }

    /// The same, kept in memory only, for tests.
    package static func _inMemory(schemaID: String, alsoLookingIn directories: [String]) -> SettingsStore? {
        SettingsStore(schemaID: schemaID, alsoLookingIn: directories, backend: g_memory_settings_backend_new())
    }

    private init?(schemaID: String, alsoLookingIn directories: [String], backend: UnsafeMutablePointer<GSettingsBackend>?) {
        // GSettings takes its own reference on the backend.
        defer { if let backend { g_object_unref(UnsafeMutableRawPointer(backend)) } }
        guard let schema = Self.lookUpSchema(schemaID, in: directories) else { return nil }
        defer { g_settings_schema_unref(schema) }
        settings = g_settings_new_full(schema, backend, nil)
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(settings))
    }

    /// An `i` key.
    public func integer(_ key: String) -> Int {
        Int(g_settings_get_int(settings, key))
    }

    /// Sets an `i` key, clamped to 32 bits.
    public func setInteger(_ key: String, _ value: Int) {
        g_settings_set_int(settings, key, gint(clamping: value))
    }

    /// A `b` key.
    public func boolean(_ key: String) -> Bool {
        g_settings_get_boolean(settings, key) != 0
    }

    /// Sets a `b` key.
    public func setBoolean(_ key: String, _ value: Bool) {
        g_settings_set_boolean(settings, key, value ? TWB_TRUE : TWB_FALSE)
    }

    /// An `s` key.
    public func string(_ key: String) -> String {
        guard let text = g_settings_get_string(settings, key) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// Sets an `s` key.
    public func setString(_ key: String, _ value: String) {
        g_settings_set_string(settings, key, value)
    }

    /// An `as` key.
    public func strings(_ key: String) -> [String] {
        guard let list = g_settings_get_strv(settings, key) else { return [] }
        defer { g_strfreev(list) }
        return stringArray(fromNullTerminated: list)
    }

    /// Sets an `as` key.
    public func setStrings(_ key: String, _ values: [String]) {
        _ = withNullTerminatedCStrings(values) { g_settings_set_strv(settings, key, $0) }
    }

    /// Writes every pending change out now. GSettings otherwise writes them
    /// from the main loop: call this when the loop is about to stop.
    public static func flush() {
        g_settings_sync()
    }

    private static func lookUpSchema(_ id: String, in directories: [String]) -> OpaquePointer? {
        if let source = g_settings_schema_source_get_default(),
           let schema = g_settings_schema_source_lookup(source, id, TWB_TRUE) {
            return schema
        }
        for directory in directories {
            guard let source = g_settings_schema_source_new_from_directory(
                directory, g_settings_schema_source_get_default(), TWB_FALSE, nil
            ) else { continue }
            defer { g_settings_schema_source_unref(source) }
            if let schema = g_settings_schema_source_lookup(source, id, TWB_FALSE) { return schema }
        }
        return nil
    }
}
