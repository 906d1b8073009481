public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A Swift wrapper of one GTK widget, and the widget's binder slot.
///
/// There is one wrapper per widget: `Entry.wrapping(pointer)` returns the same
/// object every time. The widget owns its wrapper (in GObject qdata) and the
/// wrapper does not retain the widget, so a binding, which holds its control
/// weakly, lives exactly as long as the widget. When the widget is destroyed
/// its binding is unbound and `pointer` becomes `nil`; the wrapper itself is
/// freed when the widget is finalized.
@MainActor
public class Widget: BindingTarget {
    // MARK: - Borrowed references

    /// The GTK widget, or `nil` once it was destroyed. Not retained.
    // NB: `@exclusivity(unchecked)`: TwoWayBinding's Internal/FastPaths.swift.
    @exclusivity(unchecked) public private(set) var pointer: UnsafeMutablePointer<GtkWidget>?

    // MARK: - Owned state

    /// The binding this widget carries; it ends with the widget.
    public var binder: AnyBinding? {
        didSet {
            if pointer == nil, binder != nil {
                // A destroyed widget takes no binding; the caller's handle
                // stays, so the binding ends when the caller lets it go.
                binder = nil
            }
            Self.countBinder(from: oldValue, to: binder)
        }
    }

    /// What `showValidation(_:message:)` watches, kept while the widget lives.
    var validationSource: AnyObject?
    var validationToken: ObservationToken?

    private var destroyHandler: ObservationToken?

    /// Wrappers alive, for leak tests.
    package private(set) static var _liveCount = 0
    /// Wrappers holding a binding, for leak tests.
    package private(set) static var _boundCount = 0

    /// The GType a wrapped widget must be an instance of.
    public class var gtkType: GType { gtk_widget_get_type() }

    // Only the registry (`wrapping(_:)`) calls this, once per widget.
    required init(unsafe pointer: UnsafeMutablePointer<GtkWidget>) {
        self.pointer = pointer
        Self._liveCount += 1
        destroyHandler = Signal.connectKnown(pointer, signal: "destroy") { [weak self] in
            self?.widgetWillDestroy()
        }
    }

    isolated deinit {
        Self._liveCount -= 1
        Self.countBinder(from: binder, to: nil)
    }

    /// Whether the widget is shown (when its parent is).
    public var isVisible: Bool {
        get { pointer.map { gtk_widget_get_visible($0) != 0 } ?? false }
        set { pointer.map { gtk_widget_set_visible($0, newValue ? TWB_TRUE : TWB_FALSE) } }
    }

    /// Whether the widget reacts to input.
    public var isSensitive: Bool {
        get { pointer.map { gtk_widget_get_sensitive($0) != 0 } ?? false }
        set { pointer.map { gtk_widget_set_sensitive($0, newValue ? TWB_TRUE : TWB_FALSE) } }
    }

    /// What a screen reader calls the widget, when no label names it (a
    /// control beside its question's text, in a row).
    public var accessibleLabel: String? {
        didSet {
            guard accessibleLabel != oldValue else { return }
            for part in accessibleParts {
                if let accessibleLabel {
                    twb_accessible_set_label(OpaquePointer(part), accessibleLabel)
                } else {
                    gtk_accessible_reset_property(OpaquePointer(part), GTK_ACCESSIBLE_PROPERTY_LABEL)
                }
            }
        }
    }

    /// A part inside the widget that takes keyboard focus in its place, and
    /// so must carry its name, description and state for a screen reader.
    var accessibleStandIn: UnsafeMutablePointer<GtkWidget>? { nil }

    /// The widget and its stand-in, which a screen reader meets.
    var accessibleParts: [UnsafeMutablePointer<GtkWidget>] {
        guard let pointer else { return [] }
        return [pointer] + [accessibleStandIn].compactMap { $0 }
    }

    /// What a screen reader reads after the name (a question's hint); a
    /// validation message shown with `showValidation` is read before it
    /// while there is one.
    public var accessibleDescription: String? {
        didSet {
            guard accessibleDescription != oldValue else { return }
            describeForScreenReader()
        }
    }

    /// The message `showValidation` shows now, if any.
    var validationMessage: String?

    /// Tells a screen reader the validation message, then the description:
    /// the hint that explains a refusal is heard with it.
    func describeForScreenReader() {
        let description = [validationMessage, accessibleDescription].compactMap { $0 }.joined(separator: "\n")
        for part in accessibleParts {
            twb_accessible_set_description(OpaquePointer(part), description.isEmpty ? nil : description)
        }
    }

    /// Whether a screen reader announces the widget as required.
    public var isAccessibleRequired: Bool = false {
        didSet {
            guard isAccessibleRequired != oldValue else { return }
            for part in accessibleParts {
                twb_accessible_set_required(OpaquePointer(part), isAccessibleRequired ? TWB_TRUE : TWB_FALSE)
            }
        }
    }

    /// Moves keyboard focus to the widget.
    public func grabFocus() {
        pointer.map { _ = gtk_widget_grab_focus($0) }
    }

    /// Whether the widget itself has keyboard focus.
    public var hasFocus: Bool {
        pointer.map { gtk_widget_has_focus($0) != 0 } ?? false
    }

    /// Cuts everything that refers to the widget while it still exists.
    /// Subclasses that hold more must call `super` last.
    func widgetWillDestroy() {
        validationToken?.cancel()
        validationToken = nil
        validationSource = nil
        binder?.unbind()
        binder = nil
        destroyHandler?.cancel()
        destroyHandler = nil
        pointer = nil
    }

    private static func countBinder(from old: AnyBinding?, to new: AnyBinding?) {
        switch (old == nil, new == nil) {
        case (true, false): _boundCount += 1
        case (false, true): _boundCount -= 1
        default: break
        }
    }
}
