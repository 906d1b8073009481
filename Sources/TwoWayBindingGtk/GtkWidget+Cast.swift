import CTwoWayBindingGtkShims

// GTK's class pointers import either as typed pointers (GtkEntry, GtkRange,
// GtkWindow, GApplication…) or as OpaquePointer (GtkEditable, GtkSpinButton,
// GtkLabel…). The layer and the app convert here, one way for all. Package
// access: conveniences on pointer types are no part of the library's API.
extension UnsafeMutablePointer {
    /// The same GObject instance as another class's pointer:
    /// `widget.cast(to: GtkWindow.self)`. Only meaningful between GObject types.
    package func cast<Other>(to: Other.Type = Other.self) -> UnsafeMutablePointer<Other> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: Other.self)
    }

    /// The same instance, for the GTK types Swift imports as `OpaquePointer`.
    package var opaque: OpaquePointer { OpaquePointer(self) }
}

extension OpaquePointer {
    /// The same GObject instance as a typed pointer: `label.cast(to: GtkWidget.self)`.
    package func cast<Other>(to: Other.Type = Other.self) -> UnsafeMutablePointer<Other> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: Other.self)
    }
}
