public import CGtk

// GTK's class pointers import either as typed pointers (GtkEntry, GtkRange,
// GtkWindow…) or as OpaquePointer (GtkEditable, GtkSpinButton, GtkLabel…).
// Wrappers keep a GtkWidget pointer and convert here, one way for all.
extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// The same instance as another GTK class pointer: `window.cast(to: GtkWindow.self)`.
    public func cast<Other>(to: Other.Type = Other.self) -> UnsafeMutablePointer<Other> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: Other.self)
    }

    /// The same instance, for the GTK types Swift imports as `OpaquePointer`.
    public var opaque: OpaquePointer { OpaquePointer(self) }
}
