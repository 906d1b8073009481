import CGtk
import Foundation

/// Where the app keeps its files: `$XDG_DATA_HOME/<app id>/` (GLib honours
/// `XDG_DATA_HOME` and the Flatpak sandbox) and `$XDG_CONFIG_HOME/<app id>/`.
enum DataLocation {
    static var dataDirectory: URL {
        URL(fileURLWithPath: String(cString: g_get_user_data_dir()), isDirectory: true)
            .appendingPathComponent(AppInfo.id, isDirectory: true)
    }

    static var configDirectory: URL {
        URL(fileURLWithPath: String(cString: g_get_user_config_dir()), isDirectory: true)
            .appendingPathComponent(AppInfo.id, isDirectory: true)
    }
}
