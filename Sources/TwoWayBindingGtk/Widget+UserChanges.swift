import CTwoWayBindingGtkShims
import TwoWayBinding

extension Widget {
    /// What a wrapper connected to report user changes; one token ends it all.
    struct UserChangeConnections {
        var handlers: [ObservationToken] = []
    }

    /// Connects `signal` of `object` (the widget itself when `nil`) for a user-change observation.
    func connect(
        _ signal: String,
        of object: UnsafeMutableRawPointer? = nil,
        into connections: inout UserChangeConnections,
        _ handler: @escaping @MainActor () -> Void
    ) {
        guard let target = object ?? pointer.map(UnsafeMutableRawPointer.init) else { return }
        connections.handlers.append(Signal.connectKnown(target, signal: signal, handler))
    }

    /// Calls `handler` when `focusWidget` (the widget itself when `nil`; an
    /// entry's text, say) loses keyboard focus, also when its window does.
    func connectFocusLeave(
        of focusWidget: UnsafeMutablePointer<GtkWidget>? = nil,
        into connections: inout UserChangeConnections,
        _ handler: @escaping @MainActor () -> Void
    ) {
        // NB: not a GtkEventControllerFocus: one added while the widget holds
        // focus never hears `enter`, so it misses the next `leave`.
        guard let focusWidget = focusWidget ?? pointer else { return }
        connect("notify::has-focus", of: focusWidget, into: &connections) {
            if gtk_widget_has_focus(focusWidget) == 0 { handler() }
        }
    }

    /// The widget that holds keyboard focus for an editable (its GtkText).
    func editableFocusWidget() -> UnsafeMutablePointer<GtkWidget>? {
        guard let pointer, let delegate = gtk_editable_get_delegate(pointer.opaque) else { return self.pointer }
        return UnsafeMutableRawPointer(delegate).assumingMemoryBound(to: GtkWidget.self)
    }

    /// A token that disconnects `connections`.
    func token(for connections: UserChangeConnections) -> ObservationToken {
        ObservationToken {
            for handler in connections.handlers { handler.cancel() }
        }
    }
}
