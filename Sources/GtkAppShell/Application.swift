public import CTwoWayBindingGtkShims
public import TwoWayBindingGtk
public import TwoWayBinding

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
    // The handlers of its start-up, activation, options and files are the
    // application's for its whole run, not tokens: a token held by a
    // program's top level may be released after its last use, before `run()`.
    private var handlers: [ObservationToken] = []

    /// How an application runs: GApplication's flags that apps set.
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Files named on the command line, or handed over by a second
        /// launch, reach `onOpen`.
        public static let handlesOpen = Flags(rawValue: G_APPLICATION_HANDLES_OPEN.rawValue)
        /// Each launch runs as an instance of its own, not handing over to a
        /// running one.
        public static let nonUnique = Flags(rawValue: G_APPLICATION_NON_UNIQUE.rawValue)
    }

    /// An application with the reverse-DNS `id`.
    public init(id: String, flags: Flags = []) {
        pointer = gtk_application_new(id, GApplicationFlags(flags.rawValue))
    }

    isolated deinit {
        g_object_unref(pointer)
    }

    /// Calls `handler` each time the application is activated: at start, and
    /// when it is launched again while running.
    public func onActivate(_ handler: @escaping @MainActor () -> Void) {
        handlers.append(Signal.connectKnown(pointer, signal: "activate", handler))
    }

    /// Calls `handler` with the local paths of the files the application is
    /// asked to open: named on its command line, or handed over by a second
    /// launch. The application needs the `.handlesOpen` flag.
    public func onOpen(_ handler: @escaping @MainActor (_ paths: [String]) -> Void) {
        handlers.append(Signal.connectOpen(pointer, handler))
    }

    /// Calls `handler` with the parsed command-line options (those added
    /// with `addOptions`), in the launching process, before the application
    /// registers or opens a display: it returns an exit status to end there,
    /// or -1 to go on.
    public func onLocalOptions(_ handler: @escaping @MainActor (CommandLineArguments) -> Int32) {
        handlers.append(Signal.connectLocalOptions(pointer) { handler(CommandLineArguments($0)) })
    }

    /// Calls `handler` once, when the application starts up as the running
    /// instance, before its first activation: the place for what needs a
    /// display (style sheets, actions, shortcuts).
    public func onStartup(_ handler: @escaping @MainActor () -> Void) {
        handlers.append(Signal.connectKnown(pointer, signal: "startup", handler))
    }

    /// Where GtkApplication looks, as it starts up, for the app's menus
    /// (`gtk/menus.ui`), shortcuts window (`gtk/help-overlay.ui`) and icons
    /// (`icons/`) among the registered resources: by default the path made
    /// from the application's id. `nil` to look nowhere; set before it runs.
    public var resourceBasePath: String? {
        get { g_application_get_resource_base_path(gApplication).map { String(cString: $0) } }
        set { g_application_set_resource_base_path(gApplication, newValue) }
    }

    /// How the application runs (`.nonUnique` for an instance of its own,
    /// say); set before it registers.
    public var flags: Flags {
        get { Flags(rawValue: g_application_get_flags(gApplication).rawValue) }
        set { g_application_set_flags(gApplication, GApplicationFlags(newValue.rawValue)) }
    }

    /// If another instance of the application is running, hands it `paths`
    /// to open (its `onOpen` handler gets them) and returns true. Otherwise
    /// this process registers as the running instance and returns false.
    public func openInRunningInstance(_ paths: [String]) -> Bool {
        guard g_application_register(gApplication, nil, nil) != 0,
              g_application_get_is_remote(gApplication) != 0
        else { return false }
        var files = paths.map { g_file_new_for_path($0) }
        defer { files.forEach { g_object_unref(UnsafeMutableRawPointer($0)) } }
        g_application_open(gApplication, &files, gint(files.count), "")
        return true
    }

    /// Keeps the application running with no window, while one is being
    /// prepared (a file read off the main thread); until `release()`.
    public func hold() {
        g_application_hold(gApplication)
    }

    /// Ends one `hold()`: with no window and no other hold, the run ends.
    public func release() {
        g_application_release(gApplication)
    }

    /// Ends the run: `run()` returns once the main loop is back.
    public func quit() {
        g_application_quit(gApplication)
    }

    /// Calls `handler` on the main loop when the process gets one of
    /// `signals` (`SIGTERM`, `SIGINT`, `SIGHUP`), instead of dying at once:
    /// the place to save and quit. Until the token ends.
    public func onUnixSignals(_ signals: [Int32], _ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        let box = Unmanaged.passRetained(UnixSignalHandler(handler)).toOpaque()
        let run: @convention(c) (gpointer?) -> gboolean = { data in
            runOnMainThread { Unmanaged<UnixSignalHandler>.fromOpaque(data!).takeUnretainedValue().handler() }
            return gboolean(TWB_TRUE)
        }
        let release: @convention(c) (gpointer?) -> Void = { data in
            Unmanaged<UnixSignalHandler>.fromOpaque(data!).release()
        }
        // One reference per source, each released by GLib when its source goes.
        let sources = signals.map { signal in
            _ = Unmanaged<UnixSignalHandler>.fromOpaque(box).retain()
            return g_unix_signal_add_full(G_PRIORITY_DEFAULT, signal, run, box, release)
        }
        Unmanaged<UnixSignalHandler>.fromOpaque(box).release()
        return ObservationToken {
            for source in sources { g_source_remove(source) }
        }
    }

    /// The name the desktop shows for the application (`g_set_application_name`).
    public static func setDisplayName(_ name: String) {
        g_set_application_name(name)
    }

    private var gApplication: UnsafeMutablePointer<GApplication> { pointer.cast(to: GApplication.self) }

    /// Sets the shortcuts of `action` (`"app.quit"`, `"win.submit"`), in
    /// GTK's accelerator syntax (`"<Control>q"`), replacing any it had.
    public func setAccelerators(_ accelerators: [String], for action: String) {
        withNullTerminatedCStrings(accelerators) { gtk_application_set_accels_for_action(pointer, action, $0) }
    }

    /// The shortcuts of `action`, as `setAccelerators` takes them.
    public func accelerators(for action: String) -> [String] {
        guard let list = gtk_application_get_accels_for_action(pointer, action) else { return [] }
        defer { g_strfreev(list) }
        return stringArray(fromNullTerminated: list)
    }

    /// Runs the main loop until the last window closes; the exit status.
    public func run(arguments: [String] = CommandLine.arguments) -> Int32 {
        MainLoopBridge.install()
        var cStrings = arguments.map { g_strdup($0) }
        defer { cStrings.forEach { g_free($0) } }
        return g_application_run(pointer.cast(to: GApplication.self), Int32(cStrings.count), &cStrings)
    }
}

/// A Unix signal's handler, as GLib's callback data.
private final class UnixSignalHandler {
    let handler: @MainActor () -> Void

    init(_ handler: @escaping @MainActor () -> Void) {
        self.handler = handler
    }
}
