import CTwoWayBindingGtkShims
import Foundation

/// The GResource bundle compiled into the binary (the .ui files and CSS).
@MainActor
enum ResourceBundle {
    private static var isRegistered = false

    /// Makes the bundle's files reachable under `AppInfo.resourceBase`.
    static func register() {
        guard !isRegistered else { return }
        guard let data = Data(base64Encoded: embeddedResourceBundleBase64) else {
            fatalError("the embedded resource bundle is not valid base64: rebuild the app")
        }
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        var error: UnsafeMutablePointer<GError>?
        guard let resource = g_resource_new_from_data(bytes, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            fatalError("the embedded resource bundle cannot be loaded: \(message)")
        }
        g_bytes_unref(bytes)
        g_resources_register(resource)
        isRegistered = true
    }

    /// Adds the app's style sheet to the display.
    static func loadStyleSheet() {
        guard let display = gdk_display_get_default() else { return }
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_resource(provider, "\(AppInfo.resourceBase)/style.css")
        gtk_style_context_add_provider_for_display(
            display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION)
        )
    }
}
