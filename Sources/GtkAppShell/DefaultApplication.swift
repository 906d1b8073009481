import CTwoWayBindingGtkShims
public import Foundation
public import TwoWayBindingGtk

/// Opens a file in the desktop's application for its type (a recording in
/// the music player, a video in the video player), through the OpenURI
/// portal inside a sandbox.
@MainActor
public enum DefaultApplication {
    /// Opens the file at `url`, over the window `widget` is in.
    public static func open(_ url: URL, from widget: Widget) {
        let root = widget.pointer.flatMap { gtk_widget_get_root($0) }
        let window: UnsafeMutablePointer<GtkWindow>? = root.flatMap { root in
            twb_instance_is_a(UnsafeMutableRawPointer(root), gtk_window_get_type()) != 0
                ? UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWindow.self) : nil
        }
        gtk_show_uri(window, url.absoluteString, guint32(GDK_CURRENT_TIME))
    }
}
