import CTwoWayBindingGtkShims

/// Runs Swift concurrency's main-actor work (`Task { @MainActor in … }`,
/// resumptions after `await`, `DispatchQueue.main.async`) under GLib's main
/// loop, which otherwise never drains libdispatch's main queue.
///
/// Call `install()` once, before `g_application_run` or `g_main_loop_run`.
@MainActor
public enum MainLoopBridge {
    /// How the main queue reaches GLib.
    public enum Mode: Sendable, Equatable {
        /// `install()` was not called yet.
        case notInstalled
        /// A GLib watch on libdispatch's main-queue eventfd: no polling.
        case fileDescriptor
        /// A GLib timeout that drains the main queue every few milliseconds.
        case polling
        /// This libdispatch offers no way to drain its main queue from outside.
        case unavailable
    }

    /// How the bridge works, once installed.
    public private(set) static var mode = Mode.notInstalled

    /// Bridges libdispatch's main queue into the default GLib main context.
    /// Calling it again does nothing.
    ///
    /// - Parameter pollingInterval: milliseconds between drains when the
    ///   main queue's file descriptor is not available.
    public static func install(pollingInterval: UInt32 = 10) {
        guard mode == .notInstalled else { return }
        let handle = twb_dispatch_main_queue_handle()
        if handle >= 0 {
            installWatch(on: handle)
        } else if twb_dispatch_drain_main_queue() != 0 {
            installPolling(every: pollingInterval)
        } else {
            mode = .unavailable
            twb_log_warning(
                "TwoWayBindingGtk",
                "libdispatch cannot be drained: main-actor tasks will not run under the GLib main loop"
            )
        }
    }

    private static func installWatch(on handle: gint) {
        // Reading an emptied eventfd must not block the main loop.
        g_unix_set_fd_nonblocking(handle, TWB_TRUE, nil)
        let drain: GUnixFDSourceFunc = { handle, _, _ in
            // Reset first: work queued while draining writes the fd again.
            twb_eventfd_reset(handle)
            twb_dispatch_drain_main_queue()
            return TWB_TRUE
        }
        g_unix_fd_add(handle, G_IO_IN, drain, nil)
        mode = .fileDescriptor
    }

    /// The fallback; `package` so that tests can exercise it too.
    static func installPolling(every interval: UInt32) {
        let drain: GSourceFunc = { _ in
            twb_dispatch_drain_main_queue()
            return TWB_TRUE
        }
        g_timeout_add(interval, drain, nil)
        mode = .polling
    }
}
