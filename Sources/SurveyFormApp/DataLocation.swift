import Foundation
import OpenRosa
import GtkAppShell
import TwoWayBindingGtk

/// Where the app keeps its files: `$XDG_DATA_HOME/<app id>/` (GLib honours
/// `XDG_DATA_HOME` and the Flatpak sandbox). Settings live in GSettings.
enum DataLocation {
    static var dataDirectory: URL {
        UserEnvironment.dataDirectory.appendingPathComponent(AppInfo.id, isDirectory: true)
    }

    /// The forms downloaded from OpenRosa servers.
    static var formLibrary: FormLibrary {
        FormLibrary(directory: dataDirectory.appendingPathComponent("forms", isDirectory: true))
    }
}
