import CTwoWayBindingGtkShims

extension Widget {
    /// Runs `action` once, just after GTK has painted the first frame that
    /// shows the widget: for work a window can do without at first (reading
    /// pictures), so that it does not slow the frame the user waits for.
    /// A widget never shown never runs it; the request ends with the widget.
    public func afterFirstFrame(_ action: @escaping @MainActor () -> Void) {
        guard let pointer else { return }
        // The tick comes as the frame begins, before layout and paint; an
        // idle added then runs once the frame is painted. GTK drops the tick
        // with the widget.
        _ = addTick(to: pointer) {
            _ = addIdle(priority: G_PRIORITY_DEFAULT_IDLE) {
                action()
                return false
            }
            return false
        }
    }
}
