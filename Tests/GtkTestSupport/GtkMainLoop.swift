import CTwoWayBindingGtkShims

/// Runs a real GLib main loop until a condition holds or a timeout passes:
/// nothing but GLib's own sources (and the main-queue bridge, when installed)
/// runs meanwhile.
@MainActor
public final class GtkMainLoop {
    private let loop = g_main_loop_new(nil, 0)!
    private let condition: () -> Bool
    private let deadline: gint64
    private var conditionHeld = false

    private init(timeout: Double, condition: @escaping () -> Bool) {
        self.condition = condition
        deadline = g_get_monotonic_time() + gint64(timeout * 1_000_000)
    }

    isolated deinit {
        g_main_loop_unref(loop)
    }

    /// Whether `condition` came true before `timeout` seconds passed.
    public static func run(timeout: Double, until condition: @escaping () -> Bool) -> Bool {
        let runner = GtkMainLoop(timeout: timeout, condition: condition)
        // A check every 5 ms; it drains nothing, so only the bridge runs tasks.
        let check: GSourceFunc = { data in
            MainActor.assumeIsolated {
                let runner = Unmanaged<GtkMainLoop>.fromOpaque(data!).takeUnretainedValue()
                runner.conditionHeld = runner.condition()
                if runner.conditionHeld || g_get_monotonic_time() > runner.deadline {
                    g_main_loop_quit(runner.loop)
                }
            }
            return TWB_TRUE
        }
        let source = g_timeout_add(5, check, Unmanaged.passUnretained(runner).toOpaque())
        g_main_loop_run(runner.loop)
        g_source_remove(source)
        return runner.conditionHeld
    }
}
