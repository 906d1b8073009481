import CTwoWayBindingGtkShims

/// A GObject held weakly (`GWeakRef`): what a handle keeps of the object it
/// acts on, so that the object can go first and the handle then does nothing.
@MainActor
package final class WeakObject {
    private let reference: UnsafeMutablePointer<GWeakRef>

    package init(_ object: UnsafeMutableRawPointer) {
        reference = .allocate(capacity: 1)
        reference.initialize(to: GWeakRef())
        g_weak_ref_init(reference, object)
    }

    isolated deinit {
        g_weak_ref_clear(reference)
        reference.deallocate()
    }

    /// Runs `body` with the object, or returns `nil` if it is gone. Holds a
    /// strong reference for the call: the weak one alone could be cleared by
    /// finalization on the way.
    package func withObject<T>(_ body: (UnsafeMutableRawPointer) -> T) -> T? {
        guard let object = g_weak_ref_get(reference) else { return nil }
        defer { g_object_unref(object) }
        return body(object)
    }
}
