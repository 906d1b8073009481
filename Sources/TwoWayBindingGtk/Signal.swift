package import CTwoWayBindingGtkShims
public import TwoWayBinding

/// Connects Swift closures to GObject signals. Each connection is an
/// `ObservationToken`, the same handle as every other observation: the
/// handler is disconnected when the token is cancelled or released, and a
/// bag of them ends together.
///
/// GLib owns the closure: it is released when the handler is disconnected or
/// the object is disposed, whichever comes first. The token refers to the
/// object weakly, so cancelling it after the object is gone does nothing.
@MainActor
public enum Signal {}

/// One connection's object (held weakly) and handler id.
@MainActor
final class SignalConnection {
    let id: gulong
    private let object: WeakObject

    init(object instance: UnsafeMutableRawPointer, id: gulong) {
        self.id = id
        object = WeakObject(instance)
    }

    /// Whether the object is alive and the handler still connected to it.
    var isConnected: Bool {
        object.withObject { g_signal_handler_is_connected($0, id) != 0 } ?? false
    }

    /// Disconnects the handler, which releases its closure. Calling it again does nothing.
    func disconnect() {
        _ = object.withObject { instance in
            // After dispose GLib has dropped its handlers; their ids are stale.
            if g_signal_handler_is_connected(instance, id) != 0 { g_signal_handler_disconnect(instance, id) }
        }
    }
}

extension Signal {
    /// Calls `handler` on the main actor each time `object` emits `signal`, for
    /// any signal that returns nothing, whatever its arguments.
    ///
    /// Throws, naming the signal and the object's type, when the object has
    /// no such signal or the signal returns a value.
    public static func connect(
        _ object: UnsafeMutableRawPointer,
        signal: String,
        _ handler: @escaping @MainActor () -> Void
    ) throws(SignalError) -> ObservationToken {
        try check(object, signal, takes: nil, shape: "any arguments, returning nothing")
        return connectKnown(object, signal: signal, handler)
    }

    /// Calls `handler` with the signal's argument each time `object` emits
    /// `signal`, for signals shaped `void (*)(instance, gint, gpointer)`, such
    /// as a dialog's `response`.
    ///
    /// Throws when the object has no such signal or its signal is shaped otherwise.
    public static func connect(
        _ object: UnsafeMutableRawPointer,
        signal: String,
        _ handler: @escaping @MainActor (Int32) -> Void
    ) throws(SignalError) -> ObservationToken {
        try check(object, signal, takes: [twb_type_int(), twb_type_enum()], shape: "one integer, returning nothing")
        return connectKnown(object, signal: signal, handler)
    }

    /// Calls `handler` with the signal's string argument each time `object`
    /// emits `signal`, for signals shaped `void (*)(instance, const char *,
    /// gpointer)`, such as an `AdwMessageDialog`'s `response`.
    ///
    /// Throws when the object has no such signal or its signal is shaped otherwise.
    public static func connect(
        _ object: UnsafeMutableRawPointer,
        signal: String,
        _ handler: @escaping @MainActor (String) -> Void
    ) throws(SignalError) -> ObservationToken {
        try check(object, signal, takes: [twb_type_string()], shape: "one string, returning nothing")
        return connectKnown(object, signal: signal, handler)
    }

    /// Throws unless `object` has `signal`, returning nothing and passing one
    /// argument of a type in `argument` (or any arguments, when `nil`).
    private static func check(
        _ object: UnsafeMutableRawPointer, _ signal: String, takes argument: [GType]?, shape: String
    ) throws(SignalError) {
        var returnType: GType = 0
        var count: guint = 0
        var first: GType = 0
        let type = String(cString: g_type_name(twb_type_of(object)))
        guard twb_signal_shape(object, signal, &returnType, &count, &first) != 0 else {
            throw .noSuchSignal(signal: signal, type: type)
        }
        let fits = returnType == twb_type_none() && argument.map { count == 1 && $0.contains(first) } ?? true
        guard fits else {
            let takes = count == 0 ? "no argument" : count == 1 ? "one \(String(cString: g_type_name(first)))" : "\(count) arguments"
            let gives = returnType == twb_type_none() ? "returning nothing" : "returning a \(String(cString: g_type_name(returnType)))"
            throw .wrongShape(signal: signal, type: type, expected: shape, actual: "\(takes), \(gives)")
        }
    }

    // The library's own connections, to signals it knows its objects have.

    package static func connectKnown(
        _ object: UnsafeMutableRawPointer,
        signal: String,
        _ handler: @escaping @MainActor () -> Void
    ) -> ObservationToken {
        let box = SignalClosureBox(.plain(handler))
        // NB: swift-frontend 6.3.1 crashes on a @convention(c) closure that
        // captures anything; the box travels through user_data instead.
        // Swapped, user_data comes first, so one shape serves every void signal.
        let trampoline: @convention(c) (gpointer) -> Void = { data in
            runOnMainThread { SignalClosureBox.unretained(data).run() }
        }
        return connect(object, signal, unsafeBitCast(trampoline, to: GCallback.self), box, swapped: true)
    }

    package static func connectKnown(
        _ object: UnsafeMutableRawPointer,
        signal: String,
        _ handler: @escaping @MainActor (Int32) -> Void
    ) -> ObservationToken {
        let box = SignalClosureBox(.integer { handler(Int32($0)) })
        let trampoline: @convention(c) (gpointer, gint, gpointer) -> Void = { _, argument, data in
            runOnMainThread { SignalClosureBox.unretained(data).run(argument) }
        }
        return connect(object, signal, unsafeBitCast(trampoline, to: GCallback.self), box, swapped: false)
    }

    package static func connectKnown(
        _ object: UnsafeMutableRawPointer,
        signal: String,
        _ handler: @escaping @MainActor (String) -> Void
    ) -> ObservationToken {
        let box = SignalClosureBox(.text(handler))
        let trampoline: @convention(c) (gpointer, UnsafePointer<CChar>?, gpointer) -> Void = { _, argument, data in
            let text = argument.map { String(cString: $0) } ?? ""
            runOnMainThread { SignalClosureBox.unretained(data).run(text) }
        }
        return connect(object, signal, unsafeBitCast(trampoline, to: GCallback.self), box, swapped: false)
    }

    /// Connects a signal shaped `void (*)(instance, GVariant *, gpointer)`
    /// whose variant is a string (an action's `activate` or `change-state`),
    /// passing the string on.
    package static func connectStringVariant(
        _ object: UnsafeMutableRawPointer,
        signal: String,
        _ handler: @escaping @MainActor (String) -> Void
    ) -> ObservationToken {
        let box = SignalClosureBox(.text(handler))
        let trampoline: @convention(c) (gpointer, OpaquePointer?, gpointer) -> Void = { _, variant, data in
            guard let variant, String(cString: g_variant_get_type_string(variant)) == "s" else { return }
            let text = String(cString: g_variant_get_string(variant, nil))
            runOnMainThread { SignalClosureBox.unretained(data).run(text) }
        }
        return connect(object, signal, unsafeBitCast(trampoline, to: GCallback.self), box, swapped: false)
    }

    /// Connects GtkSpinButton's `input` signal (`gint (*)(GtkSpinButton*, double*, gpointer)`),
    /// which converts the typed text into a value.
    static func connectSpinInput(
        _ object: UnsafeMutableRawPointer,
        _ handler: @escaping @MainActor (UnsafeMutablePointer<Double>) -> gint
    ) -> ObservationToken {
        let box = SignalClosureBox(.spinInput(handler))
        let trampoline: @convention(c) (gpointer, UnsafeMutablePointer<Double>?, gpointer) -> gint = {
            _, newValue, data in
            guard let newValue else { return TWB_FALSE }
            return runOnMainThread { SignalClosureBox.unretained(data).convert(newValue) }
        }
        return connect(object, "input", unsafeBitCast(trampoline, to: GCallback.self), box, swapped: false)
    }

    /// Connects a signal shaped `void (*)(instance, gpointer object, gpointer)`,
    /// such as a list item factory's `bind`, passing the object on.
    static func connectObjectSignal(
        _ object: UnsafeMutableRawPointer,
        signal: String,
        _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void
    ) -> ObservationToken {
        let box = SignalClosureBox(.object(handler))
        let trampoline: @convention(c) (gpointer, gpointer?, gpointer) -> Void = { _, argument, data in
            runOnMainThread { SignalClosureBox.unretained(data).run(object: argument) }
        }
        return connect(object, signal, unsafeBitCast(trampoline, to: GCallback.self), box, swapped: false)
    }

    /// Connects a signal shaped `gboolean (*)(instance, gpointer)`, such as
    /// GtkSpinButton's `output` or GtkWindow's `close-request`; `handler`'s
    /// answer is the signal's (`TWB_TRUE`: handled, stop here).
    static func connectDeciding(
        _ object: UnsafeMutableRawPointer,
        signal: String,
        _ handler: @escaping @MainActor () -> gint
    ) -> ObservationToken {
        let box = SignalClosureBox(.decide(handler))
        let trampoline: @convention(c) (gpointer) -> gint = { data in
            runOnMainThread { SignalClosureBox.unretained(data).decide() }
        }
        return connect(object, signal, unsafeBitCast(trampoline, to: GCallback.self), box, swapped: true)
    }

    /// Connects a key controller's `key-pressed` (`gboolean (*)(GtkEventControllerKey*,
    /// guint keyval, guint keycode, GdkModifierType, gpointer)`); `handler`
    /// returns whether it took the key.
    static func connectKeyPressed(
        _ controller: UnsafeMutableRawPointer,
        _ handler: @escaping @MainActor (_ keyval: guint, _ state: GdkModifierType) -> Bool
    ) -> ObservationToken {
        let box = SignalClosureBox(.key(handler))
        let trampoline: @convention(c) (gpointer, guint, guint, GdkModifierType, gpointer) -> gboolean = {
            _, keyval, _, state, data in
            runOnMainThread { SignalClosureBox.unretained(data).handleKey(keyval, state) }
        }
        return connect(controller, "key-pressed", unsafeBitCast(trampoline, to: GCallback.self), box, swapped: false)
    }

    /// Connects GApplication's `open` (`void (*)(GApplication*, GFile**, gint,
    /// const char *hint, gpointer)`), passing the files' local paths on.
    package static func connectOpen(
        _ application: UnsafeMutableRawPointer, _ handler: @escaping @MainActor ([String]) -> Void
    ) -> ObservationToken {
        let box = SignalClosureBox(.paths(handler))
        let trampoline: @convention(c) (gpointer, UnsafeMutablePointer<OpaquePointer?>?, gint, UnsafePointer<CChar>?, gpointer) -> Void = {
            _, files, count, _, data in
            var paths: [String] = []
            for index in 0..<Int(max(count, 0)) {
                guard let file = files?[index], let path = g_file_get_path(file) else { continue }
                paths.append(String(cString: path))
                g_free(path)
            }
            runOnMainThread { SignalClosureBox.unretained(data).run(paths: paths) }
        }
        return connect(application, "open", unsafeBitCast(trampoline, to: GCallback.self), box, swapped: false)
    }

    /// Connects a signal shaped `void (*)(instance, double, double,
    /// gpointer)`, such as a drag gesture's `drag-begin`, passing both on.
    package static func connectPoint(
        _ object: UnsafeMutableRawPointer, signal: String, _ handler: @escaping @MainActor (Double, Double) -> Void
    ) -> ObservationToken {
        let box = SignalClosureBox(.point(handler))
        let trampoline: @convention(c) (gpointer, Double, Double, gpointer) -> Void = { _, x, y, data in
            runOnMainThread { SignalClosureBox.unretained(data).run(x: x, y: y) }
        }
        return connect(object, signal, unsafeBitCast(trampoline, to: GCallback.self), box, swapped: false)
    }

    /// Connects GtkDropTarget's `drop` (`gboolean (*)(GtkDropTarget*, const
    /// GValue*, double, double, gpointer)`) for a target of `GdkFileList`,
    /// passing the files' local paths on; taken when there is one.
    package static func connectFileDrop(
        _ target: UnsafeMutableRawPointer, _ handler: @escaping @MainActor ([String]) -> Void
    ) -> ObservationToken {
        let box = SignalClosureBox(.paths(handler))
        let trampoline: @convention(c) (gpointer, UnsafePointer<GValue>?, Double, Double, gpointer) -> gboolean = {
            _, value, _, _, data in
            guard let value, let list = g_value_get_boxed(value) else { return TWB_FALSE }
            var paths: [String] = []
            var node = gdk_file_list_get_files(OpaquePointer(list))
            let head = node
            while let current = node {
                if let file = current.pointee.data, let path = g_file_get_path(OpaquePointer(file)) {
                    paths.append(String(cString: path))
                    g_free(path)
                }
                node = current.pointee.next
            }
            g_slist_free(head)
            guard !paths.isEmpty else { return TWB_FALSE }
            runOnMainThread { SignalClosureBox.unretained(data).run(paths: paths) }
            return TWB_TRUE
        }
        return connect(target, "drop", unsafeBitCast(trampoline, to: GCallback.self), box, swapped: false)
    }

    /// Connects GApplication's `handle-local-options` (`gint (*)(GApplication*,
    /// GVariantDict*, gpointer)`).
    package static func connectLocalOptions(
        _ application: UnsafeMutableRawPointer, _ handler: @escaping @MainActor (UnsafeMutablePointer<GVariantDict>) -> gint
    ) -> ObservationToken {
        let box = SignalClosureBox(.options(handler))
        let trampoline: @convention(c) (gpointer, UnsafeMutablePointer<GVariantDict>, gpointer) -> gint = { _, options, data in
            runOnMainThread { SignalClosureBox.unretained(data).handle(options: options) }
        }
        return connect(application, "handle-local-options", unsafeBitCast(trampoline, to: GCallback.self), box, swapped: false)
    }

    private static func connect(
        _ object: UnsafeMutableRawPointer,
        _ signal: String,
        _ callback: GCallback,
        _ box: SignalClosureBox,
        swapped: Bool
    ) -> ObservationToken {
        let releaseBox: GClosureNotify = { data, _ in
            guard let data else { return }
            MainActor.assumeIsolated { Unmanaged<SignalClosureBox>.fromOpaque(data).release() }
        }
        let id = twb_signal_connect(
            object, signal, callback,
            Unmanaged.passRetained(box).toOpaque(), releaseBox,
            swapped ? TWB_TRUE : TWB_FALSE
        )
        // The public connections checked the name; the library's own know it.
        precondition(id != 0, "no signal \"\(signal)\" on \(String(cString: g_type_name(twb_type_of(object))))")
        let connection = SignalConnection(object: object, id: id)
        return ObservationToken { connection.disconnect() }
    }

    /// Closure boxes that GLib still holds, for leak tests.
    package static var _liveClosureBoxCount: Int { SignalClosureBox.liveCount }
}

extension ObservationToken {
    /// Keeps this token for as long as `object` lives, in the object's data:
    /// for a handler meant to last as long as its object (a button's
    /// `clicked`, an action's `activate`), which has no other owner.
    public func keep(with object: UnsafeMutableRawPointer) {
        KeptObjects.keep(self, with: object)
    }
}

/// Swift objects a GObject keeps alive, in its data; released when it is finalized.
@MainActor
final class KeptObjects {
    private static let key = "twb-kept-objects"
    private var objects: [AnyObject] = []

    /// Keeps `kept` until `object` is finalized.
    static func keep(_ kept: AnyObject, with object: UnsafeMutableRawPointer) {
        let gobject = object.assumingMemoryBound(to: GObject.self)
        if let existing = g_object_get_data(gobject, key) {
            Unmanaged<KeptObjects>.fromOpaque(existing).takeUnretainedValue().objects.append(kept)
            return
        }
        let list = KeptObjects()
        list.objects.append(kept)
        let release: GDestroyNotify = { data in
            guard let data else { return }
            MainActor.assumeIsolated { Unmanaged<KeptObjects>.fromOpaque(data).release() }
        }
        g_object_set_data_full(gobject, key, Unmanaged.passRetained(list).toOpaque(), release)
    }
}
