import CTwoWayBindingGtkShims
public import TwoWayBindingGtk
public import Foundation

/// Where GLib says the user's files go and which languages the user reads,
/// as every GTK app sees them: `XDG_*` variables, the Flatpak sandbox's
/// folders, `LANGUAGE` and the locale.
public enum UserEnvironment {
    /// The folder for the user's application data (`$XDG_DATA_HOME`, else
    /// `~/.local/share`; inside a Flatpak, the app's own).
    public static var dataDirectory: URL {
        URL(fileURLWithPath: String(cString: g_get_user_data_dir()), isDirectory: true)
    }

    /// The user's languages for messages, most wanted first, each with its
    /// less specific forms after it (`de_DE.UTF-8`, `de_DE`, `de`) and
    /// `C` last.
    public static var languageNames: [String] {
        guard let names = g_get_language_names() else { return ["C"] }
        return stringArray(fromNullTerminated: UnsafeRawPointer(names))
    }
}
