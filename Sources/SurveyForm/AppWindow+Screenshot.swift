import CTwoWayBindingGtkShims
import Foundation
import TwoWayBindingGtk

/// `--screenshot PATH`: the window as a PNG, rendered by GTK itself.
extension AppWindow {
    /// Waits for the window's first frame, renders it to `path`; whether it worked.
    func saveScreenshot(to path: String) async -> Bool {
        guard let widget = window.pointer else { return false }
        for _ in 0..<100 where gtk_widget_get_mapped(widget) == 0 || gtk_widget_get_width(widget) == 0 {
            try? await Task.sleep(for: .milliseconds(50))
        }
        // Let layout and the first paint settle.
        try? await Task.sleep(for: .milliseconds(300))
        guard let renderer = gtk_native_get_renderer(OpaquePointer(widget)) else {
            FileHandle.standardError.write(Data("survey-form: the window has no renderer to draw with\n".utf8))
            return false
        }
        let width = gtk_widget_get_width(widget), height = gtk_widget_get_height(widget)
        guard let paintable = gtk_widget_paintable_new(widget) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return false }
        defer { gsk_render_node_unref(node) }
        guard let texture = gsk_renderer_render_texture(renderer, node, nil) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        guard gdk_texture_save_to_png(texture, path) != 0 else {
            FileHandle.standardError.write(Data("survey-form: could not write \(path)\n".utf8))
            return false
        }
        return true
    }
}
