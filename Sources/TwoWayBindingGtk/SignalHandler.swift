public import CGtk

/// One connection of a Swift closure to a GObject signal: block, unblock or
/// disconnect it through this handle.
///
/// GLib owns the closure: it is released when the handler is disconnected or
/// the object is disposed, whichever comes first. The handle refers to the
/// object weakly, so using it after the object is gone does nothing.
@MainActor
public final class SignalHandler {
    /// The handler id GLib gave the connection.
    public let id: gulong
    private let object: UnsafeMutablePointer<GWeakRef>

    private init(object instance: UnsafeMutableRawPointer, id: gulong) {
        self.id = id
        object = .allocate(capacity: 1)
        object.initialize(to: GWeakRef())
        g_weak_ref_init(object, instance)
    }

    isolated deinit {
        g_weak_ref_clear(object)
        object.deallocate()
    }

    /// Whether the object is alive and the handler still connected to it.
    public var isConnected: Bool {
        withObject { g_signal_handler_is_connected($0, id) != 0 } ?? false
    }

    /// Stops calls to the handler until `unblock()`.
    public func block() {
        withConnectedObject { g_signal_handler_block($0, id) }
    }

    /// Resumes calls to the handler after `block()`.
    public func unblock() {
        withConnectedObject { g_signal_handler_unblock($0, id) }
    }

    /// Disconnects the handler, which releases its closure. Calling it again does nothing.
    public func disconnect() {
        withConnectedObject { g_signal_handler_disconnect($0, id) }
    }

    // Holds a strong reference for the call: the weak reference alone could be
    // cleared by finalization on the way.
    private func withObject<T>(_ body: (UnsafeMutableRawPointer) -> T) -> T? {
        guard let instance = g_weak_ref_get(object) else { return nil }
        defer { g_object_unref(instance) }
        return body(instance)
    }

    private func withConnectedObject(_ body: (UnsafeMutableRawPointer) -> Void) {
        _ = withObject { instance in
            // After dispose GLib has dropped its handlers; their ids are stale.
            if g_signal_handler_is_connected(instance, id) != 0 { body(instance) }
        }
    }
}

extension SignalHandler {
    /// Calls `handler` on the main actor each time `object` emits `signal`, for
    /// any signal that returns nothing, whatever its arguments.
    @discardableResult
    public static func connect(
        _ object: UnsafeMutableRawPointer,
        signal: String,
        _ handler: @escaping @MainActor () -> Void
    ) -> SignalHandler {
        let box = SignalClosureBox(.plain(handler))
        // NB: swift-frontend 6.3.1 crashes on a @convention(c) closure that
        // captures anything; the box travels through user_data instead.
        // Swapped, user_data comes first, so one shape serves every void signal.
        let trampoline: @convention(c) (gpointer) -> Void = { data in
            MainActor.assumeIsolated { SignalClosureBox.unretained(data).run() }
        }
        return connect(object, signal, unsafeBitCast(trampoline, to: GCallback.self), box, swapped: true)
    }

    /// Calls `handler` with the signal's argument each time `object` emits
    /// `signal`, for signals shaped `void (*)(instance, gint, gpointer)`, such
    /// as a dialog's `response`.
    @discardableResult
    public static func connect(
        _ object: UnsafeMutableRawPointer,
        signal: String,
        _ handler: @escaping @MainActor (Int32) -> Void
    ) -> SignalHandler {
        let box = SignalClosureBox(.integer { handler(Int32($0)) })
        let trampoline: @convention(c) (gpointer, gint, gpointer) -> Void = { _, argument, data in
            MainActor.assumeIsolated { SignalClosureBox.unretained(data).run(argument) }
        }
        return connect(object, signal, unsafeBitCast(trampoline, to: GCallback.self), box, swapped: false)
    }

    /// Calls `handler` with the signal's string argument each time `object`
    /// emits `signal`, for signals shaped `void (*)(instance, const char *,
    /// gpointer)`, such as an `AdwMessageDialog`'s `response`.
    @discardableResult
    public static func connect(
        _ object: UnsafeMutableRawPointer,
        signal: String,
        _ handler: @escaping @MainActor (String) -> Void
    ) -> SignalHandler {
        let box = SignalClosureBox(.text(handler))
        let trampoline: @convention(c) (gpointer, UnsafePointer<CChar>?, gpointer) -> Void = { _, argument, data in
            let text = argument.map { String(cString: $0) } ?? ""
            MainActor.assumeIsolated { SignalClosureBox.unretained(data).run(text) }
        }
        return connect(object, signal, unsafeBitCast(trampoline, to: GCallback.self), box, swapped: false)
    }

    /// Connects GtkSpinButton's `input` signal (`gint (*)(GtkSpinButton*, double*, gpointer)`),
    /// which converts the typed text into a value.
    static func connectSpinInput(
        _ object: UnsafeMutableRawPointer,
        _ handler: @escaping @MainActor (UnsafeMutablePointer<Double>) -> gint
    ) -> SignalHandler {
        let box = SignalClosureBox(.spinInput(handler))
        let trampoline: @convention(c) (gpointer, UnsafeMutablePointer<Double>?, gpointer) -> gint = {
            _, newValue, data in
            guard let newValue else { return SF_FALSE }
            return MainActor.assumeIsolated { SignalClosureBox.unretained(data).convert(newValue) }
        }
        return connect(object, "input", unsafeBitCast(trampoline, to: GCallback.self), box, swapped: false)
    }

    /// Connects a signal shaped `void (*)(instance, gpointer object, gpointer)`,
    /// such as a list item factory's `bind`, passing the object on.
    static func connectObjectSignal(
        _ object: UnsafeMutableRawPointer,
        signal: String,
        _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void
    ) -> SignalHandler {
        let box = SignalClosureBox(.object(handler))
        let trampoline: @convention(c) (gpointer, gpointer?, gpointer) -> Void = { _, argument, data in
            MainActor.assumeIsolated { SignalClosureBox.unretained(data).run(object: argument) }
        }
        return connect(object, signal, unsafeBitCast(trampoline, to: GCallback.self), box, swapped: false)
    }

    /// Connects GtkSpinButton's `output` signal (`gboolean (*)(GtkSpinButton*, gpointer)`),
    /// which writes the value as text; `handler` returns `SF_TRUE` when it wrote it.
    static func connectSpinOutput(
        _ object: UnsafeMutableRawPointer,
        _ handler: @escaping @MainActor () -> gint
    ) -> SignalHandler {
        let box = SignalClosureBox(.decide(handler))
        let trampoline: @convention(c) (gpointer) -> gint = { data in
            MainActor.assumeIsolated { SignalClosureBox.unretained(data).decide() }
        }
        return connect(object, "output", unsafeBitCast(trampoline, to: GCallback.self), box, swapped: true)
    }

    private static func connect(
        _ object: UnsafeMutableRawPointer,
        _ signal: String,
        _ callback: GCallback,
        _ box: SignalClosureBox,
        swapped: Bool
    ) -> SignalHandler {
        let releaseBox: GClosureNotify = { data, _ in
            guard let data else { return }
            MainActor.assumeIsolated { Unmanaged<SignalClosureBox>.fromOpaque(data).release() }
        }
        let id = sf_signal_connect(
            object, signal, callback,
            Unmanaged.passRetained(box).toOpaque(), releaseBox,
            swapped ? SF_TRUE : SF_FALSE
        )
        precondition(id != 0, "no signal \"\(signal)\" on \(String(cString: g_type_name(sf_type_of(object))))")
        return SignalHandler(object: object, id: id)
    }

    /// Closure boxes that GLib still holds, for leak tests.
    package static var liveClosureBoxCount: Int { SignalClosureBox.liveCount }
}
