import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A pointer (mouse, pen or finger) dragged across a widget: where it went
/// down, in the widget's coordinates, then how far it has moved from there.
public enum PointerDrag: Sendable, Equatable {
    case began(x: Double, y: Double)
    case moved(dx: Double, dy: Double)
    case ended(dx: Double, dy: Double)
}

extension Widget {
    /// Calls `handler` as a pointer is pressed on the widget, dragged and
    /// let go (GTK's drag gesture); the handler ends with the token.
    public func onPointerDrag(_ handler: @escaping @MainActor (PointerDrag) -> Void) -> ObservationToken {
        guard let pointer else { return ObservationToken {} }
        let gesture = gtk_gesture_drag_new()!
        gtk_widget_add_controller(pointer, gesture)
        let object = UnsafeMutableRawPointer(gesture)
        let connections = [
            Signal.connectPoint(object, signal: "drag-begin") { x, y in handler(.began(x: x, y: y)) },
            Signal.connectPoint(object, signal: "drag-update") { dx, dy in handler(.moved(dx: dx, dy: dy)) },
            Signal.connectPoint(object, signal: "drag-end") { dx, dy in handler(.ended(dx: dx, dy: dy)) },
        ]
        return ObservationToken { [weak self] in
            for connection in connections { connection.cancel() }
            MainActor.assumeIsolated {
                if let pointer = self?.pointer { gtk_widget_remove_controller(pointer, gesture) }
            }
        }
    }

    /// Drags from `start` to `end` through the widget's own drag gestures'
    /// signals, as a mouse would, for tests; says whether it had one.
    @discardableResult
    package func _pointerDrag(from start: (x: Double, y: Double), to end: (x: Double, y: Double)) -> Bool {
        guard let pointer else { return false }
        let controllers = gtk_widget_observe_controllers(pointer)!
        defer { g_object_unref(UnsafeMutableRawPointer(controllers)) }
        var dragged = false
        for index in 0..<g_list_model_get_n_items(controllers) {
            guard let controller = g_list_model_get_item(controllers, index) else { continue }
            defer { g_object_unref(controller) }
            guard twb_instance_is_a(controller, gtk_gesture_drag_get_type()) != 0 else { continue }
            twb_emit_point(controller, "drag-begin", start.x, start.y)
            twb_emit_point(controller, "drag-update", (end.x - start.x) / 2, (end.y - start.y) / 2)
            twb_emit_point(controller, "drag-end", end.x - start.x, end.y - start.y)
            dragged = true
        }
        return dragged
    }
}
