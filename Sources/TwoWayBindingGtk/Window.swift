public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A `GtkWindow` (or a subclass, such as `AdwApplicationWindow`).
public final class Window: Widget {
    public override class var gtkType: GType { gtk_window_get_type() }

    private var window: UnsafeMutablePointer<GtkWindow>? { pointer?.cast(to: GtkWindow.self) }

    /// The title shown in the title bar.
    public var title: String {
        get { window.flatMap { gtk_window_get_title($0) }.map { String(cString: $0) } ?? "" }
        set { window.map { gtk_window_set_title($0, newValue) } }
    }

    /// The size the window opens at, and that follows the user's resizing
    /// (kept while it is maximized); 0 for a side GTK chooses.
    public var defaultSize: (width: Int, height: Int) {
        get {
            var width: gint = 0, height: gint = 0
            if let window { gtk_window_get_default_size(window, &width, &height) }
            return (Int(width), Int(height))
        }
        set {
            guard let window else { return }
            gtk_window_set_default_size(window, gint(clamping: newValue.width), gint(clamping: newValue.height))
        }
    }

    /// Whether the window fills the screen; setting it maximizes or restores it.
    public var isMaximized: Bool {
        get { window.map { gtk_window_is_maximized($0) != 0 } ?? false }
        set {
            guard let window else { return }
            if newValue { gtk_window_maximize(window) } else { gtk_window_unmaximize(window) }
        }
    }

    /// Makes the window a dialog of `parent`: kept above it, centred on it,
    /// and, if `modal`, taking its input until it closes.
    public func standOver(_ parent: Window?, modal: Bool = true) {
        guard let window else { return }
        gtk_window_set_transient_for(window, parent?.window)
        gtk_window_set_modal(window, modal ? TWB_TRUE : TWB_FALSE)
    }

    /// Calls `handler` when the window is asked to close (its close button,
    /// the keyboard, `close()`), while it is still whole: the place to save
    /// its size or a draft. The window then closes.
    public func onCloseRequest(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        guard let pointer else { return ObservationToken {} }
        return Signal.connectDeciding(pointer, signal: "close-request") {
            handler()
            return TWB_FALSE
        }
    }

    /// The icon every window shows unless it names its own: the app's,
    /// by its icon name (usually the application id). A window realized
    /// before this is called keeps what it had: give it `iconName`.
    public static func setDefaultIconName(_ name: String) {
        gtk_window_set_default_icon_name(name)
    }

    /// The icon this window shows, by its icon name; `nil` for the default.
    public var iconName: String? {
        get {
            guard let window, let name = gtk_window_get_icon_name(window) else { return nil }
            return String(cString: name)
        }
        set {
            if let window { gtk_window_set_icon_name(window, newValue) }
        }
    }

    /// Shows the window, or raises it if it is shown already.
    public func present() {
        if let window { gtk_window_present(window) }
    }

    /// Closes the window, as its close button does.
    public func close() {
        if let window { gtk_window_close(window) }
    }

    // MARK: - Focus

    /// The widget with keyboard focus in the window, wrapped, if any. For a
    /// control made of parts (an entry's text, a spin button's), it is the
    /// part: `ancestor(ofType:)` finds the control.
    public var focusedWidget: Widget? {
        guard let window, let focus = gtk_window_get_focus(window) else { return nil }
        return try? Widget.wrapping(focus)
    }

    /// Calls `handler` with the newly focused widget (as `focusedWidget`
    /// gives it) each time focus moves in the window, until the token ends.
    public func onFocusChange(_ handler: @escaping @MainActor (Widget?) -> Void) -> ObservationToken {
        guard let pointer else { return ObservationToken {} }
        return Signal.connectObjectSignal(pointer, signal: "notify::focus-widget") { [weak self] _ in
            handler(self?.focusedWidget)
        }
    }

    /// Which way `moveFocus(_:)` goes.
    public enum FocusDirection: Sendable {
        /// As Tab does.
        case forward
        /// As Shift+Tab does.
        case backward
    }

    /// Moves keyboard focus to the next (or previous) widget that takes it,
    /// as Tab (or Shift+Tab) would; `false` when there is none to move to.
    @discardableResult
    public func moveFocus(_ direction: FocusDirection) -> Bool {
        guard let pointer else { return false }
        return gtk_widget_child_focus(pointer, direction == .forward ? GTK_DIR_TAB_FORWARD : GTK_DIR_TAB_BACKWARD) != 0
    }

    // MARK: - Drawing

    /// Calls `handler` once, after the window has drawn its first frame (or,
    /// if it was drawn already, its next): the place to start work that
    /// would otherwise delay it (reading a large list). A window never shown
    /// never calls it.
    public func onFirstFrame(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        guard let pointer else { return ObservationToken {} }
        let pending = FirstFrame(handler)
        let waitForPaint = { [weak pending, weak self] in
            guard let pending else { return }
            guard let widget = self?.pointer, let clock = gtk_widget_get_frame_clock(widget) else {
                pending.fire()
                return
            }
            pending.painted = Signal.connectKnown(UnsafeMutableRawPointer(clock), signal: "after-paint") { [weak pending] in
                pending?.fire()
            }
        }
        // A window has its frame clock from when it is realized.
        if gtk_widget_get_realized(pointer) != 0 {
            // A window drawn already draws again only when asked to.
            waitForPaint()
            gtk_widget_queue_draw(pointer)
        } else {
            pending.realized = Signal.connectKnown(pointer, signal: "realize") { [weak pending] in
                pending?.realized?.cancel()
                waitForPaint()
            }
        }
        return ObservationToken { pending.cancel() }
    }
}

/// The two connections of `Window.onFirstFrame`, each ended when it has
/// served; the handler runs at most once.
@MainActor
private final class FirstFrame {
    private var handler: (@MainActor () -> Void)?
    var realized: ObservationToken?
    var painted: ObservationToken?

    init(_ handler: @escaping @MainActor () -> Void) { self.handler = handler }

    func fire() {
        let handler = self.handler
        cancel()
        handler?()
    }

    func cancel() {
        handler = nil
        realized?.cancel()
        painted?.cancel()
        realized = nil
        painted = nil
    }
}
