import CTwoWayBindingGtkShims

extension Widget {
    /// The wrapper of `widget`, made on first use; the same object every time.
    ///
    /// Throws when the widget is not a `gtkType` of this class, or was first
    /// wrapped by an unrelated wrapper class.
    public static func wrapping<Pointee>(_ widget: UnsafeMutablePointer<Pointee>) throws(WidgetError) -> Self {
        try wrapping(checked: UnsafeMutableRawPointer(widget))
    }

    /// The wrapper of `widget`, for GTK types that Swift imports as `OpaquePointer`.
    public static func wrapping(_ widget: OpaquePointer) throws(WidgetError) -> Self {
        try wrapping(checked: UnsafeMutableRawPointer(widget))
    }

    /// Whether `object` is an instance of this wrapper's GType.
    public static func canWrap(_ object: UnsafeMutableRawPointer) -> Bool {
        twb_instance_is_a(object, gtkType) != 0
    }

    private static func wrapping(checked object: UnsafeMutableRawPointer) throws(WidgetError) -> Self {
        guard canWrap(object) else {
            throw .wrongType(expected: String(cString: g_type_name(gtkType)), actual: typeName(of: object))
        }
        return try wrapping(raw: object)
    }

    /// The wrapper of an object already known to be a `gtkType`.
    package static func wrapping(raw object: UnsafeMutableRawPointer) throws(WidgetError) -> Self {
        let gobject = object.assumingMemoryBound(to: GObject.self)
        if let stored = g_object_get_qdata(gobject, wrapperQuark) {
            let existing = Unmanaged<Widget>.fromOpaque(stored).takeUnretainedValue()
            guard let typed = existing as? Self else {
                throw .wrappedAs(wrapper: "\(type(of: existing))", requested: "\(Self.self)", type: typeName(of: object))
            }
            return typed
        }
        // The most specific wrapper, so that every later lookup can find it.
        let wrapperClass = (mostSpecificClass(for: twb_type_of(object)) as? Self.Type) ?? Self.self
        let wrapper = wrapperClass.init(unsafe: object.assumingMemoryBound(to: GtkWidget.self))
        wrapper.register()
        return wrapper
    }

    /// Wraps a widget of this class's type that the library has just made,
    /// and so no wrapper can hold yet.
    convenience init(new widget: UnsafeMutablePointer<GtkWidget>) {
        self.init(unsafe: widget)
        register()
    }

    /// Gives the wrapper to its widget, which keeps it until finalized.
    private func register() {
        guard let pointer else { return }
        // NB: qdata destroy-notifies run at finalize, after `destroy`, so the
        // wrapper outlives every signal the widget can still emit.
        g_object_set_qdata_full(
            UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GObject.self), Self.wrapperQuark,
            Unmanaged.passRetained(self).toOpaque()
        ) { data in
            guard let data else { return }
            MainActor.assumeIsolated { Unmanaged<Widget>.fromOpaque(data).release() }
        }
    }

    private static let wrapperQuark = g_quark_from_string("twowaybinding-gtk-wrapper")

    /// The wrapper classes, most derived GTK type first.
    private static func mostSpecificClass(for type: GType) -> Widget.Type {
        let classes: [Widget.Type] = [
            SpinButton.self, Entry.self, Switch.self, Scale.self, TextView.self,
            CheckButton.self, ToggleButton.self, DropDown.self, DatePicker.self, Label.self,
            PopoverButton.self, ListView.self, Box.self, ScrolledWindow.self, Window.self,
            // After the check and toggle buttons, which are GtkButtons too.
            Button.self,
        ]
        return classes.first { g_type_is_a(type, $0.gtkType) != 0 } ?? Widget.self
    }

    package static func typeName(of object: UnsafeMutableRawPointer) -> String {
        String(cString: g_type_name(twb_type_of(object)))
    }
}
