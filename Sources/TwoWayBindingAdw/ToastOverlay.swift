import CTwoWayBindingAdw
import TwoWayBinding
public import TwoWayBindingGtk

/// A libadwaita toast overlay (`AdwToastOverlay`): short messages over its
/// child, each with an optional button such as Undo.
///
/// ```swift
/// let toasts = try ToastOverlay(builder.object("toastOverlay", as: Widget.self))
/// toasts.show("Response deleted", button: "_Undo", onButton: restore)
/// ```
@MainActor
public final class ToastOverlay {
    /// The overlay's wrapper.
    public let widget: Widget
    private var overlay: OpaquePointer? { widget.pointer.map(OpaquePointer.init) }

    /// The toast overlay `widget` is; any other widget is refused.
    public init(_ widget: Widget) throws(WidgetError) {
        guard let pointer = widget.pointer else { throw .destroyed(expected: "AdwToastOverlay") }
        guard twb_instance_is_a(UnsafeMutableRawPointer(pointer), adw_toast_overlay_get_type()) != 0 else {
            throw .wrongType(expected: "AdwToastOverlay", actual: String(cString: g_type_name(twb_type_of(UnsafeMutableRawPointer(pointer)))))
        }
        self.widget = widget
    }

    /// Shows `title` for `timeout` seconds (0: until dismissed), above any
    /// toast showing unless it is `urgent`, which shows at once. A button
    /// reading `button` (an underscore marks its mnemonic) calls `onButton`.
    /// `onDismissed` is called when the toast goes, for whatever reason.
    /// The toast, to dismiss.
    @discardableResult
    public func show(
        _ title: String, button: String? = nil, timeout: UInt32 = 5, urgent: Bool = false,
        onButton: (@MainActor () -> Void)? = nil, onDismissed: (@MainActor () -> Void)? = nil
    ) -> Toast {
        let made = adw_toast_new(title)!
        let toast = Toast(made)
        if let button { adw_toast_set_button_label(made, button) }
        adw_toast_set_timeout(made, timeout)
        adw_toast_set_priority(made, urgent ? ADW_TOAST_PRIORITY_HIGH : ADW_TOAST_PRIORITY_NORMAL)
        // The overlay owns the toast and frees it once dismissed; its handlers go with it.
        if let onButton {
            Signal.connectKnown(UnsafeMutableRawPointer(made), signal: "button-clicked", onButton).keep(with: UnsafeMutableRawPointer(made))
        }
        Signal.connectKnown(UnsafeMutableRawPointer(made), signal: "dismissed") { [weak toast] in
            toast?.isShown = false
            onDismissed?()
        }
        .keep(with: UnsafeMutableRawPointer(made))
        if let overlay {
            adw_toast_overlay_add_toast(overlay, made)
        } else {
            // No overlay to own it: a destroyed one shows nothing.
            g_object_unref(UnsafeMutableRawPointer(made))
            toast.isShown = false
        }
        return toast
    }
}

/// A toast an overlay shows (`AdwToast`), held weakly: once it is
/// dismissed, the overlay frees it and this handle does nothing.
@MainActor
public final class Toast {
    private let toast: WeakObject
    /// Whether the toast is still shown or waiting to be.
    public fileprivate(set) var isShown = true

    fileprivate init(_ toast: OpaquePointer) {
        self.toast = WeakObject(UnsafeMutableRawPointer(toast))
    }

    /// Takes the toast away, as its close button does.
    public func dismiss() {
        guard isShown else { return }
        _ = toast.withObject { adw_toast_dismiss(OpaquePointer($0)) }
    }
}
