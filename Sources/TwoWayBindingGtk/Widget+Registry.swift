import CGtk

extension Widget {
    /// The wrapper of `widget`, made on first use; the same object every time.
    ///
    /// Traps when the widget is not a `gtkType` of this class, or was first
    /// wrapped by an unrelated wrapper class.
    public static func wrapping<Pointee>(_ widget: UnsafeMutablePointer<Pointee>) -> Self {
        wrapping(raw: UnsafeMutableRawPointer(widget))
    }

    /// The wrapper of `widget`, for GTK types that Swift imports as `OpaquePointer`.
    public static func wrapping(_ widget: OpaquePointer) -> Self {
        wrapping(raw: UnsafeMutableRawPointer(widget))
    }

    /// Whether `object` is an instance of this wrapper's GType.
    public static func canWrap(_ object: UnsafeMutableRawPointer) -> Bool {
        sf_instance_is_a(object, gtkType) != 0
    }

    static func wrapping(raw object: UnsafeMutableRawPointer) -> Self {
        precondition(
            canWrap(object),
            "\(typeName(of: object)) is not a \(String(cString: g_type_name(gtkType))), so it cannot be wrapped as \(Self.self)"
        )
        let gobject = object.assumingMemoryBound(to: GObject.self)
        if let stored = g_object_get_qdata(gobject, wrapperQuark) {
            let existing = Unmanaged<Widget>.fromOpaque(stored).takeUnretainedValue()
            guard let typed = existing as? Self else {
                preconditionFailure("\(typeName(of: object)) is already wrapped as \(type(of: existing)), not \(Self.self)")
            }
            return typed
        }
        // The most specific wrapper, so that every later lookup can find it.
        let wrapperClass = (mostSpecificClass(for: sf_type_of(object)) as? Self.Type) ?? Self.self
        let wrapper = wrapperClass.init(unsafe: object.assumingMemoryBound(to: GtkWidget.self))
        // NB: qdata destroy-notifies run at finalize, after `destroy`, so the
        // wrapper outlives every signal the widget can still emit.
        g_object_set_qdata_full(gobject, wrapperQuark, Unmanaged.passRetained(wrapper).toOpaque()) { data in
            guard let data else { return }
            MainActor.assumeIsolated { Unmanaged<Widget>.fromOpaque(data).release() }
        }
        return wrapper
    }

    private static let wrapperQuark = g_quark_from_string("twowaybinding-gtk-wrapper")

    /// The wrapper classes, most derived GTK type first.
    private static func mostSpecificClass(for type: GType) -> Widget.Type {
        let classes: [Widget.Type] = [
            SpinButton.self, Entry.self, Switch.self, Scale.self, TextView.self,
            CheckButton.self, DropDown.self, DatePicker.self, Label.self,
        ]
        return classes.first { g_type_is_a(type, $0.gtkType) != 0 } ?? Widget.self
    }

    static func typeName(of object: UnsafeMutableRawPointer) -> String {
        String(cString: g_type_name(sf_type_of(object)))
    }
}
