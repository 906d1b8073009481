import CTwoWayBindingGtkShims
public import TwoWayBinding

extension Widget {
    /// Calls `handler` when Enter (Return or the keypad's Enter, with no
    /// modifier) is pressed while focus is on the widget or inside it, before
    /// the widget sees the key; the key goes on to the widget when `handler`
    /// returns `false`. For a form where Enter moves on from a control that
    /// has no use of its own for it. The handler ends with the token.
    public func onEnter(_ handler: @escaping @MainActor () -> Bool) -> ObservationToken {
        guard let pointer else { return ObservationToken {} }
        let controller = gtk_event_controller_key_new()!
        // Capture: the widget's own Enter (a switch toggles, a check button
        // activates) comes after.
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        gtk_widget_add_controller(pointer, controller)
        let modifiers = GDK_CONTROL_MASK.rawValue | GDK_SHIFT_MASK.rawValue | GDK_ALT_MASK.rawValue
            | GDK_SUPER_MASK.rawValue
        let enterKeys = [GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter].map { guint($0) }
        let connection = Signal.connectKeyPressed(UnsafeMutableRawPointer(controller)) { keyval, state in
            guard state.rawValue & modifiers == 0, enterKeys.contains(keyval) else { return false }
            return handler()
        }
        // The controller goes with its handler: a cancelled token leaves
        // nothing on a widget that lives on.
        return ObservationToken { [weak self] in
            connection.cancel()
            MainActor.assumeIsolated {
                if let pointer = self?.pointer { gtk_widget_remove_controller(pointer, controller) }
            }
        }
    }
}
