import CTwoWayBindingGtkShims
public import TwoWayBindingGtk

extension Window {
    /// Why a window could not be saved as an image.
    public enum ScreenshotError: Error, Equatable, CustomStringConvertible {
        /// The window was not shown within the time allowed.
        case notShown
        /// The window has no renderer to draw with.
        case noRenderer
        /// GTK drew nothing.
        case nothingDrawn
        /// The file could not be written.
        case cannotWrite(path: String)

        public var description: String {
            switch self {
            case .notShown: "the window was not shown"
            case .noRenderer: "the window has no renderer to draw with"
            case .nothingDrawn: "the window drew nothing"
            case .cannotWrite(let path): "could not write \(path)"
            }
        }
    }

    /// Waits for the window to be shown and drawn, then saves it as a PNG at
    /// `path`, rendered by GTK itself: what the user sees, without a
    /// screen-capture tool.
    public func saveScreenshot(to path: String) async throws(ScreenshotError) {
        for _ in 0..<100 where pointer.map({ gtk_widget_get_mapped($0) == 0 || gtk_widget_get_width($0) == 0 }) ?? true {
            try? await Task.sleep(for: .milliseconds(50))
        }
        // Let layout and the first paint settle.
        try? await Task.sleep(for: .milliseconds(300))
        guard let widget = pointer, gtk_widget_get_mapped(widget) != 0 else { throw .notShown }
        guard let renderer = gtk_native_get_renderer(OpaquePointer(widget)) else { throw .noRenderer }
        let width = gtk_widget_get_width(widget), height = gtk_widget_get_height(widget)
        guard let paintable = gtk_widget_paintable_new(widget) else { throw .nothingDrawn }
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { throw .nothingDrawn }
        defer { gsk_render_node_unref(node) }
        guard let texture = gsk_renderer_render_texture(renderer, node, nil) else { throw .nothingDrawn }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        guard gdk_texture_save_to_png(texture, path) != 0 else { throw .cannotWrite(path: path) }
    }
}
