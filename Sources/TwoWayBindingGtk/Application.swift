public import CTwoWayBindingGtkShims
import TwoWayBinding

/// A `GtkApplication` whose main loop also runs Swift's main actor, so that
/// `Task { … }`, `await` and `EventBus.post` reach the widgets.
///
/// ```swift
/// let app = Application(id: "org.example.Greeter")
/// app.onActivate { try? Builder(string: ui).object("window", as: Window.self).present(in: app) }
/// exit(app.run())
/// ```
@MainActor
public final class Application {
    /// The GtkApplication, owned by this object.
    public let pointer: UnsafeMutablePointer<GtkApplication>
    private var handlers: [ObservationToken] = []

    /// An application with the reverse-DNS `id`; `flags` as GApplication takes them.
    public init(id: String, flags: GApplicationFlags = G_APPLICATION_DEFAULT_FLAGS) {
        pointer = gtk_application_new(id, flags)
    }

    isolated deinit {
        g_object_unref(pointer)
    }

    /// Calls `handler` each time the application is activated: at start, and
    /// when it is launched again while running.
    public func onActivate(_ handler: @escaping @MainActor () -> Void) {
        handlers.append(Signal.connect(pointer, signal: "activate", handler))
    }

    /// Calls `handler` with the local paths of the files the application is
    /// asked to open: named on its command line, or handed over by a second
    /// launch. The application needs `G_APPLICATION_HANDLES_OPEN`.
    public func onOpen(_ handler: @escaping @MainActor (_ paths: [String]) -> Void) {
        handlers.append(Signal.connectOpen(pointer, handler))
    }

    /// Calls `handler` with the parsed command-line options, in the launching
    /// process, before the application registers or opens a display: it
    /// returns an exit status to end there, or -1 to go on.
    public func onLocalOptions(_ handler: @escaping @MainActor (UnsafeMutablePointer<GVariantDict>) -> Int32) {
        handlers.append(Signal.connectLocalOptions(pointer, handler))
    }

    /// Sets the shortcuts of `action` (`"app.quit"`, `"win.submit"`), in
    /// GTK's accelerator syntax (`"<Control>q"`), replacing any it had.
    public func setAccelerators(_ accelerators: [String], for action: String) {
        withNullTerminatedCStrings(accelerators) { gtk_application_set_accels_for_action(pointer, action, $0) }
    }

    /// The shortcuts of `action`, as `setAccelerators` takes them.
    public func accelerators(for action: String) -> [String] {
        guard let list = gtk_application_get_accels_for_action(pointer, action) else { return [] }
        defer { g_strfreev(list) }
        var result: [String] = []
        var cursor = list
        while let accelerator = cursor.pointee {
            result.append(String(cString: accelerator))
            cursor += 1
        }
        return result
    }

    /// Runs the main loop until the last window closes; the exit status.
    public func run(arguments: [String] = CommandLine.arguments) -> Int32 {
        MainLoopBridge.install()
        var cStrings = arguments.map { g_strdup($0) }
        defer { cStrings.forEach { g_free($0) } }
        return g_application_run(pointer.cast(to: GApplication.self), Int32(cStrings.count), &cStrings)
    }
}
