public import CTwoWayBindingGtkShims
public import TwoWayBindingGtk
public import Foundation

/// An app's GResource bundle (what `glib-compile-resources` makes of its
/// `.ui` files, style sheets and icons) and its style sheets.
@MainActor
public enum Resources {
    /// Why a resource bundle cannot be used.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        /// The bytes are not a GResource bundle; GLib's message.
        case notABundle(message: String)

        public var description: String {
            switch self {
            case .notABundle(let message): "not a resource bundle: \(message)"
            }
        }
    }

    /// Makes the files of `bundle` reachable under their paths, for
    /// `Builder(resource:)`, `addStyleSheet(resource:)` and GTK's own
    /// lookups (such as `gtk/help-overlay.ui`). Register each bundle once:
    /// GLib keeps it for the life of the process.
    public static func register(_ bundle: Data) throws(Error) {
        let bytes = bundle.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        var error: UnsafeMutablePointer<GError>?
        guard let resource = g_resource_new_from_data(bytes, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            throw .notABundle(message: message)
        }
        g_resources_register(resource)
    }

    /// Adds the style sheet at the resource path `path` to every window of
    /// the default display, above the theme. Needs a display: call it from
    /// the application's start-up.
    public static func addStyleSheet(resource path: String) {
        guard let display = gdk_display_get_default() else { return }
        let provider = gtk_css_provider_new()
        defer { g_object_unref(UnsafeMutableRawPointer(provider)) }
        gtk_css_provider_load_from_resource(provider, path)
        gtk_style_context_add_provider_for_display(
            display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION)
        )
    }
}
