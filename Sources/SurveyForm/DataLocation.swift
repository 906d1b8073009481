import CTwoWayBindingGtkShims
import Foundation

/// Where the app keeps its files: `$XDG_DATA_HOME/<app id>/` (GLib honours
/// `XDG_DATA_HOME` and the Flatpak sandbox). Settings live in GSettings.
enum DataLocation {
    static var dataDirectory: URL {
        URL(fileURLWithPath: String(cString: g_get_user_data_dir()), isDirectory: true)
            .appendingPathComponent(AppInfo.id, isDirectory: true)
    }
}
