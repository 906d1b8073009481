import CTwoWayBindingGtkShims
public import TwoWayBinding

extension Widget {
    /// Calls `handler` with the local paths of files dropped onto the widget
    /// (from a file manager, or a desktop's other apps); a drop with no
    /// local file is refused. The handler ends with the token.
    public func onFilesDropped(_ handler: @escaping @MainActor ([String]) -> Void) -> ObservationToken {
        guard let pointer else { return ObservationToken {} }
        let target = gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY)!
        gtk_widget_add_controller(pointer, target)
        let connection = Signal.connectFileDrop(UnsafeMutableRawPointer(target), handler)
        return ObservationToken { [weak self] in
            connection.cancel()
            MainActor.assumeIsolated {
                if let pointer = self?.pointer { gtk_widget_remove_controller(pointer, target) }
            }
        }
    }

    /// Drops the files at `paths` onto the widget through GTK's own drop
    /// signal, as a file manager's drop would arrive, for tests: the first
    /// drop target on it or inside it, depth first, takes them. Returns
    /// whether one did.
    package func _dropFiles(_ paths: [String]) -> Bool {
        guard let pointer else { return false }
        return Self.drop(paths, onto: pointer)
    }

    private static func drop(_ paths: [String], onto widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        let controllers = gtk_widget_observe_controllers(widget)!
        defer { g_object_unref(UnsafeMutableRawPointer(controllers)) }
        for index in 0..<g_list_model_get_n_items(controllers) {
            guard let controller = g_list_model_get_item(controllers, index) else { continue }
            defer { g_object_unref(controller) }
            if twb_instance_is_a(controller, gtk_drop_target_get_type()) != 0 {
                return twb_emit_drop_files(controller, paths.joined(separator: "\n")) != 0
            }
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if drop(paths, onto: current) { return true }
            child = gtk_widget_get_next_sibling(current)
        }
        return false
    }
}
