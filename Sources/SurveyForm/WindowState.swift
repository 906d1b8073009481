import CGtk
import Foundation

/// The window's size and maximized state, kept between runs in a key file.
@MainActor
struct WindowState {
    private let url = DataLocation.configDirectory.appendingPathComponent("window-state.ini")
    private let group = "window"

    func restore(to window: UnsafeMutablePointer<GtkWindow>) {
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        guard g_key_file_load_from_file(file, url.path, G_KEY_FILE_NONE, nil) != 0 else { return }
        let width = g_key_file_get_integer(file, group, "width", nil)
        let height = g_key_file_get_integer(file, group, "height", nil)
        if width > 0, height > 0 { gtk_window_set_default_size(window, width, height) }
        if g_key_file_get_boolean(file, group, "maximized", nil) != 0 { gtk_window_maximize(window) }
    }

    func save(from window: UnsafeMutablePointer<GtkWindow>) {
        var width: gint = 0, height: gint = 0
        // The default size follows the user's resizing, and is kept while maximized.
        gtk_window_get_default_size(window, &width, &height)
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        g_key_file_set_integer(file, group, "width", width)
        g_key_file_set_integer(file, group, "height", height)
        g_key_file_set_boolean(file, group, "maximized", gtk_window_is_maximized(window))
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // A lost window size is not worth interrupting anyone for.
        g_key_file_save_to_file(file, url.path, nil)
    }
}
