import CGtk
import Foundation
import SurveyStorage
import TwoWayBindingGtk

/// The GtkApplication: one instance per user session, a window, the
/// command-line modes and the app-wide actions and shortcuts.
@MainActor
final class SurveyApplication {
    // MARK: - Owned references

    let application: UnsafeMutablePointer<GtkApplication>
    private var window: SurveyWindow?
    private var handlers: [SignalHandler] = []

    /// Whether the window is for respondents (`--kiosk` or the setting).
    private var isKiosk = false

    /// Where `--screenshot` writes, when asked.
    private var screenshotPath: String?

    init() {
        Translations.setUp()
        g_set_application_name(tr("Survey Form"))
        // Before GtkApplication's own start-up, which looks for the shortcuts
        // window (gtk/help-overlay.ui) under the app's resource path.
        ResourceBundle.register()
        application = gtk_application_new(AppInfo.id, G_APPLICATION_DEFAULT_FLAGS)
        CommandLineOptions.add(to: application)
        connectSignals()
    }

    isolated deinit {
        g_object_unref(application)
    }

    /// Runs the application until its last window closes; the exit status.
    func run() -> Int32 {
        MainLoopBridge.install()
        let status = g_application_run(gApplication, CommandLine.argc, CommandLine.unsafeArgv)
        Settings.shared.flush()
        return status != 0 ? status : exitStatus
    }

    var gApplication: UnsafeMutablePointer<GApplication> { application.cast(to: GApplication.self) }

    // MARK: - Signals

    private func connectSignals() {
        // handle-local-options returns a value and so needs its own trampoline;
        // the application object outlives the run, so it travels unretained.
        let handleLocalOptions: @convention(c) (gpointer, UnsafeMutablePointer<GVariantDict>, gpointer) -> gint = { _, options, data in
            MainActor.assumeIsolated {
                Unmanaged<SurveyApplication>.fromOpaque(data).takeUnretainedValue().handleLocalOptions(options)
            }
        }
        sf_signal_connect(
            application, "handle-local-options", unsafeBitCast(handleLocalOptions, to: GCallback.self),
            Unmanaged.passUnretained(self).toOpaque(), nil, SF_FALSE
        )
        handlers.append(SignalHandler.connect(application, signal: "startup") { [weak self] in
            self?.startup()
        })
        handlers.append(SignalHandler.connect(application, signal: "activate") { [weak self] in
            self?.activate()
        })
    }

    /// Options that need no display are handled here, before GTK opens one.
    private func handleLocalOptions(_ options: UnsafeMutablePointer<GVariantDict>) -> gint {
        switch CommandLineOptions.parse(options) {
        case .version:
            print("\(AppInfo.executable) \(AppInfo.version)")
            return 0
        case .exportCSV(let path, let force):
            return CSVExport.run(to: path, replacing: force)
        case .describeForm(let path):
            return DescribeForm.run(path: path)
        case .screenshot(let path):
            // A screenshot needs its own instance, not the running one's window.
            g_application_set_flags(gApplication, G_APPLICATION_NON_UNIQUE)
            screenshotPath = path
            return -1
        case .run(let kiosk):
            isKiosk = kiosk || Settings.shared.isKiosk
            return -1
        }
    }

    private func startup() {
        ResourceBundle.loadStyleSheet()
        gtk_window_set_default_icon_name(AppInfo.id)
        AppActions.install(on: self)
        quitOnTerminationSignals()
    }

    /// SIGTERM (a shutdown), SIGINT (Ctrl+C in a terminal) and SIGHUP (the
    /// session ending) quit as Ctrl+Q does: the draft is saved first. GLib
    /// delivers them on the main loop, where saving is safe.
    private func quitOnTerminationSignals() {
        let quit: @convention(c) (gpointer?) -> gboolean = { data in
            MainActor.assumeIsolated {
                Unmanaged<SurveyApplication>.fromOpaque(data!).takeUnretainedValue().quit()
            }
            return gboolean(SF_FALSE)
        }
        // The application object outlives the run, so it travels unretained.
        let app = Unmanaged.passUnretained(self).toOpaque()
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            g_unix_signal_add(signal, quit, app)
        }
    }

    private func activate() {
        if let window {
            window.present()
            return
        }
        let window = SurveyWindow(application: self, kiosk: isKiosk)
        self.window = window
        window.onClose = { [weak self] in self?.window = nil }
        window.present()
        if let screenshotPath {
            Task { @MainActor in
                let saved = await window.saveScreenshot(to: screenshotPath)
                self.quit(status: saved ? 0 : 1)
            }
        }
    }

    // MARK: - Actions

    private var exitStatus: Int32 = 0

    /// Closes the window (which saves its state) and ends the run.
    func quit(status: Int32 = 0) {
        exitStatus = status
        window?.close()
        g_application_quit(gApplication)
    }

    func showAbout() {
        let about = gtk_about_dialog_new()!
        let dialog = OpaquePointer(about)
        gtk_about_dialog_set_program_name(dialog, tr("Survey Form"))
        gtk_about_dialog_set_version(dialog, AppInfo.version)
        gtk_about_dialog_set_logo_icon_name(dialog, AppInfo.id)
        gtk_about_dialog_set_comments(dialog, tr("Collect survey answers on this computer"))
        gtk_about_dialog_set_license_type(dialog, GTK_LICENSE_MIT_X11)
        gtk_about_dialog_set_translator_credits(dialog, tr("translator-credits"))
        let aboutWindow = about.cast(to: GtkWindow.self)
        gtk_window_set_modal(aboutWindow, SF_TRUE)
        if let parent = window?.gtkWindow { gtk_window_set_transient_for(aboutWindow, parent) }
        gtk_window_present(aboutWindow)
    }
}
