import TwoWayBinding
import Foundation
import SurveyStorage
import TwoWayBindingAdw
import GtkAppShell
import TwoWayBindingGtk

/// The GtkApplication: one instance per user session, a window, the
/// command-line modes and the app-wide actions and shortcuts.
@MainActor
public final class SurveyApplication {
    // MARK: - Owned references

    let application: Application
    private var window: (any AppWindow)?
    private var formChooser: FileChooser?
    /// What the application observes for as long as it runs.
    let bag = ObservationToken.Bag()

    /// Whether the window is for respondents (`--kiosk` or the setting).
    private var isKiosk = false

    /// The form file named on the command line, checked.
    private var formToOpen: FormFile?

    /// Where `--screenshot` writes, when asked.
    private var screenshotPath: String?

    /// Sets the icon of the window shown last once it has drawn.
    private var pendingIcon: ObservationToken?
    /// Forgets the form being opened once its window has drawn.
    private var openedForm: ObservationToken?
    /// The form that was not reopened at this start, to be explained.
    private var notReopened: String?
    /// The form being read off the main thread for the window, if one is.
    private var opening: FormOpening?
    /// The dialog saying so over the window, once the reading takes long.
    private var openingProgress: MessageDialog?

    /// The response database, opening while the first window is built.
    private var storeOpening: ResponseStore.Opening?

    public init() {
        Translations.setUp()
        Application.setDisplayName(tr("Survey Form"))
        ResourceBundle.register()
        application = Application(id: AppInfo.id, flags: .handlesOpen)
        // The app's menus, shortcuts window and icons are not where
        // GtkApplication would look for them. Looking would also add an icon
        // folder to GTK's icon theme, which drops the theme read at start and
        // reads it again on the main thread for the window's first icon.
        application.resourceBasePath = nil
        CommandLineOptions.add(to: application)
        connectSignals()
    }

    /// Runs the application until its last window closes; the exit status.
    public func run() -> Int32 {
        let status = application.run()
        Settings.shared.flush()
        return status != 0 ? status : exitStatus
    }


    // MARK: - Signals

    private func connectSignals() {
        application.onLocalOptions { [weak self] options in self?.handleLocalOptions(options) ?? -1 }
        // A form another launch hands over (or this one's command line names).
        application.onOpen { [weak self] paths in
            guard let form = paths.first else { return }
            self?.open(path: form)
        }
        application.onStartup { [weak self] in self?.startup() }
        application.onActivate { [weak self] in self?.activate() }
    }

    /// Options that need no display are handled here, before GTK opens one;
    /// a launch that shows a window opens it here, while the process has one
    /// thread (`Adwaita.initialize`).
    private func handleLocalOptions(_ options: CommandLineArguments) -> Int32 {
        let mode = CommandLineOptions.parse(options)
        if case .run = mode, let status = checkForm(CommandLineOptions.form(options)) { return status }
        if case .screenshot = mode, let status = checkForm(CommandLineOptions.form(options)) { return status }
        switch mode {
        case .version:
            Terminal.say("\(AppInfo.executable) \(AppInfo.version)")
            return 0
        case .exportCSV(let path, let force, let form):
            return CSVExport.run(to: path, replacing: force, form: form)
        case .describeForm(let path):
            return DescribeForm.run(path: path)
        case .describeInstance(let path):
            return DescribeForm.runInstance(path: path)
        case .sync(let command, let overrides):
            return SyncCommands.run(command, overrides: overrides)
        case .formServer(let command, let login):
            return FormServerCommands.run(command, login: login)
        case .screenshot(let path):
            // A screenshot needs its own instance, not the running one's window.
            application.flags = .nonUnique
            screenshotPath = path
            Adwaita.initialize()
            if formToOpen == nil { BuiltInSurvey.readInBackground() }
            return -1
        case .run(let kiosk):
            // Handing a form over registers, which starts GDBus's thread, and
            // so may reading a setting: libadwaita comes first, or (to hand
            // over) waits for startup.
            if formToOpen == nil {
                Adwaita.initialize()
                BuiltInSurvey.readInBackground()
            }
            isKiosk = kiosk || Settings.shared.isKiosk
            if let formToOpen, handOver(formToOpen) { return 0 }
            return -1
        }
    }

    /// Hands `form` to the instance already running, which shows it in its
    /// window; whether there was one. Otherwise this process goes on as the
    /// running instance (GApplication allows registering this early).
    private func handOver(_ form: FormFile) -> Bool {
        guard let path = form.path else { return false }
        return application.openInRunningInstance([path])
    }

    /// Reads the form named on the command line: `nil` to go on, or the exit
    /// status when it cannot run (2; a form that cannot run opens no half-form).
    private func checkForm(_ path: String?) -> Int32? {
        guard let path else { return nil }
        switch loadRemembered(path: path) {
        case .success(let form):
            formToOpen = form
            return nil
        case .failure(let error):
            Terminal.error(error.lines)
            return 2
        }
    }

    private func startup() {
        // Done already unless a form was named (handleLocalOptions).
        Adwaita.initialize()
        // Only the running instance gets here: a launch that hands over to it
        // never touches the database.
        storeOpening = ResponseStore.Opening(directory: DataLocation.dataDirectory)
        ResourceBundle.loadStyleSheet()
        AppActions.install(on: self)
        quitOnTerminationSignals()
        // A screenshot only draws the window.
        if screenshotPath == nil { SyncService.shared.start() }
    }

    /// SIGTERM (a shutdown), SIGINT (Ctrl+C in a terminal) and SIGHUP (the
    /// session ending) quit as Ctrl+Q does: the draft is saved first. GLib
    /// delivers them on the main loop, where saving is safe.
    private func quitOnTerminationSignals() {
        application.onUnixSignals([SIGTERM, SIGINT, SIGHUP]) { [weak self] in self?.quit() }.store(in: bag)
    }

    /// A form another launch named on its command line (`handOver`): the
    /// window shows it, or says why it cannot.
    private func open(path: String) {
        guard window != nil || opening != nil else {
            // This launch's own form, read already (`checkForm`), or one
            // another launch hands over before the first window is up.
            if formToOpen?.path != URL(fileURLWithPath: path).standardizedFileURL.path { formToOpen = nil }
            activate(opening: formToOpen == nil ? path : nil)
            return
        }
        openForm(path: path)
    }

    private func activate() {
        activate(opening: nil)
    }

    /// Shows the window: for the form named on the command line, else for
    /// `path` or the form opened last (read off the main thread first), else
    /// for the built-in survey.
    private func activate(opening path: String?) {
        if let window {
            window.present()
            return
        }
        // The window comes once the form is read.
        guard opening == nil else { return }
        if let formToOpen {
            showFirst(makeWindow(for: formToOpen))
        } else if let path = path ?? rememberedForm() {
            openAtStart(path: path)
        } else {
            showFirst(makeWindow(for: nil))
        }
    }

    /// Shows the first window the app has (not the one saying a form is
    /// being read), then what waited for it.
    private func showFirst(_ window: any AppWindow) {
        show(window)
        if let path = notReopened {
            notReopened = nil
            explainNotReopened(path)
        }
        if let screenshotPath {
            Task { @MainActor in
                let saved = await window.saveScreenshot(to: screenshotPath)
                self.quit(status: saved ? 0 : 1)
            }
        }
    }

    // MARK: - Forms

    /// The form opened last, to reopen at start. A form that was still being
    /// opened when the app last ended (it crashed or hung it) is not
    /// reopened: the built-in survey opens, and the window says why.
    private func rememberedForm() -> String? {
        guard Settings.shared.reopensForm, let path = Settings.shared.recentForms.first else { return nil }
        if Settings.shared.openingForm == path {
            Settings.shared.openingForm = ""
            Settings.shared.reopensForm = false
            notReopened = path
            return nil
        }
        return path
    }

    /// Reads `path` off the main thread with no window up yet: one saying
    /// so comes if it takes long. A form that no longer opens is dropped
    /// from the recent forms and the built-in survey opens instead, as it
    /// does when the reading is cancelled.
    private func openAtStart(path: String) {
        // No window for a moment: the app must not end for want of one.
        application.hold()
        startOpening(path: path, onSlow: { [weak self] in
            guard let self else { return }
            let progress = OpeningWindow(application: self, path: path) { [weak self] in self?.opening?.cancel() }
            // Closed by the user, it ends the app; replaced, it only goes.
            progress.window.onCloseRequest { [weak self, weak progress] in
                if let self, self.window === progress { quit() }
            }
            .store(in: bag)
            show(progress, opensForm: false)
        }) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .opened(let form):
                showFirst(makeWindow(for: form))
            case .refused(let error):
                Terminal.error(error.lines)
                Settings.shared.forget(form: path)
                showFirst(makeWindow(for: nil))
            case .cancelled:
                // The built-in survey, chosen instead: at the next start too.
                Settings.shared.reopensForm = false
                showFirst(makeWindow(for: nil))
            }
            application.release()
        }
    }

    /// Reads `path` off the main thread, remembering it as being opened
    /// until its window has drawn (`show`), or until it is refused or the
    /// reading cancelled. A reading still going is given up for it.
    private func startOpening(
        path: String, onSlow: @escaping @MainActor () -> Void, completion: @escaping @MainActor (FormOpening.Outcome) -> Void
    ) {
        opening?.cancel()
        Settings.shared.openingForm = URL(fileURLWithPath: path).standardizedFileURL.path
        opening = FormOpening(path: path, onSlow: onSlow) { [weak self] outcome in
            guard let self else { return }
            opening = nil
            if let progress = openingProgress {
                openingProgress = nil
                progress.respond("done")
            }
            if case .opened = outcome {} else { Settings.shared.openingForm = "" }
            completion(outcome)
        }
    }

    /// Reads the form at `path` on the main thread, for the command line
    /// (no window yet), remembering it as `startOpening` does.
    private func loadRemembered(path: String) -> Result<FormFile, FormFileError> {
        Settings.shared.openingForm = URL(fileURLWithPath: path).standardizedFileURL.path
        let result = FormFile.load(path: path)
        if case .failure = result { Settings.shared.openingForm = "" }
        return result
    }

    /// Says, over the window, that the form opened last was not reopened.
    private func explainNotReopened(_ path: String) {
        let dialog = MessageDialog(
            over: window?.window, heading: tr("The last form was not reopened"),
            body: String(format: tr("%@ did not finish opening when Survey Form last ran, so it was not opened again. Choose it under Open Recent to try once more."),
                         Terminal.escaped(URL(fileURLWithPath: path).lastPathComponent))
        )
        dialog.addResponse("close", label: tr("_Close"))
        dialog.defaultResponse = "close"
        dialog.closeResponse = "close"
        dialog.present()
    }

    /// The response database's opening for a window: the first window takes
    /// the one started at start-up, later ones start their own.
    func openResponseStore() -> ResponseStore.Opening {
        if let opening = storeOpening {
            storeOpening = nil
            return opening
        }
        return ResponseStore.Opening(directory: DataLocation.dataDirectory)
    }

    /// Shows `form` in place of the form shown, unless it is the form shown:
    /// that stays, with its answers (a second window on it would read its
    /// draft before this one had saved it).
    private func show(form: FormFile) {
        if let shown = window as? FormWindow, shown.form.id == form.id, shown.form.version == form.version {
            Settings.shared.openingForm = ""
            shown.present()
            return
        }
        show(makeWindow(for: form))
    }

    /// A window for `form`, or for the built-in survey.
    private func makeWindow(for form: FormFile?) -> any AppWindow {
        let shown = form ?? .builtIn
        do {
            let window = try FormWindow(application: self, form: shown, kiosk: isKiosk)
            if let path = shown.path { Settings.shared.noteOpened(form: path) }
            return window
        } catch {
            // FormFile.load checked the form, and the built-in survey's tests
            // check it: a build defect.
            fatalError("the form cannot run: \(error)")
        }
    }

    /// Shows `window` in place of the one shown; once it has drawn, the form
    /// being opened has opened (unless it is the window saying the form is
    /// still being read).
    private func show(_ window: any AppWindow, opensForm: Bool = true) {
        let previous = self.window
        self.window = window
        window.onClose = { [weak self, weak window] in
            if let self, self.window === window { self.window = nil }
        }
        window.present()
        showIconAfterFirstFrame(of: window.window)
        if opensForm { openedForm = window.window.onFirstFrame { Settings.shared.openingForm = "" } }
        // The new window is up before the old closes (saving its draft), so
        // the application never runs out of windows in between.
        previous?.close()
    }

    /// Gives the window, and every window after it, the app's icon once it
    /// has drawn: on X11 the icon is read from the icon theme and scaled to
    /// several sizes, which would otherwise delay the first frame by a
    /// twentieth of the start (Wayland takes it from the desktop file).
    private func showIconAfterFirstFrame(of window: Window) {
        pendingIcon = window.onFirstFrame { [weak window] in
            Window.setDefaultIconName(AppInfo.id)
            window?.iconName = AppInfo.id
        }
    }

    /// Opens the form at `path` in place of the form shown, read off the
    /// main thread: the window goes on answering meanwhile, and a dialog
    /// with Cancel comes if it takes long. A form that cannot run leaves the
    /// window as it is and says why in a dialog.
    func openForm(path: String) {
        guard window != nil || opening != nil else {
            activate(opening: path)
            return
        }
        startOpening(path: path, onSlow: { [weak self] in self?.showOpeningProgress(path: path) }) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .opened(let form):
                show(form: form)
            case .refused(let error):
                showProblems(error)
            case .cancelled:
                break
            }
        }
    }

    /// Says over the window that `path` is being read, with Cancel.
    private func showOpeningProgress(path: String) {
        let dialog = MessageDialog(
            over: window?.window,
            heading: String(format: tr("Opening %@"), Terminal.escaped(URL(fileURLWithPath: path).lastPathComponent)),
            body: tr("Reading and checking the form.")
        )
        dialog.addResponse("cancel", label: tr("_Cancel"))
        dialog.closeResponse = "cancel"
        dialog.showSpinner()
        openingProgress = dialog
        dialog.present { [weak self] response in
            guard let self, response == "cancel", openingProgress === dialog else { return }
            openingProgress = nil
            opening?.cancel()
        }
    }

    /// Opens a form from the menu's recent forms, or the built-in survey
    /// (`path` empty), which then also shows at the next start.
    func openRecent(path: String) {
        guard path.isEmpty else {
            // A file gone since leaves the list; the dialog says so once.
            if !FileManager.default.fileExists(atPath: path) { Settings.shared.forget(form: path) }
            openForm(path: path)
            return
        }
        Settings.shared.reopensForm = false
        show(form: .builtIn)
    }

    /// The first section of every window's main menu: Open Form…, and the
    /// forms opened lately with the built-in survey after them (less the
    /// one `shown`, a form's path or `nil` for the built-in survey).
    static func openingSection(shown: String?) -> Menu {
        let section = Menu()
        section.append(tr("_Open Form…"), action: "app.open-form")
        section.append(tr("_Get Forms…"), action: "app.get-forms")
        let recent = Menu()
        let files = Menu()
        for path in Settings.shared.recentForms where path != shown {
            files.append(URL(fileURLWithPath: path).lastPathComponent, action: "app.open-recent", target: path)
        }
        if files.count > 0 { recent.appendSection(files) }
        if shown != nil {
            let builtIn = Menu()
            builtIn.append(tr("Built-in Survey"), action: "app.open-recent", target: "")
            recent.appendSection(builtIn)
        }
        if recent.count > 0 { section.appendSubmenu(recent, label: tr("Open _Recent")) }
        return section
    }

    private func showProblems(_ error: FormFileError) {
        let dialog = MessageDialog(
            over: window?.window, heading: tr("This form cannot be opened"),
            body: String(format: tr("%@ has problems:"), URL(fileURLWithPath: error.path).lastPathComponent)
                + "\n\n" + error.problems.map(Terminal.escaped).joined(separator: "\n")
        )
        dialog.addResponse("close", label: tr("_Close"))
        dialog.defaultResponse = "close"
        dialog.closeResponse = "close"
        dialog.present()
    }

    /// Asks for a form file (an XLSForm's `.xlsx`, `.xls`, `.csv`, `.md`, or an
    /// XForm's `.xml` as a server serves it) and opens it.
    /// Get Forms: an OpenRosa server's forms, downloaded; one opens here.
    func getForms() {
        GetFormsWindow.present(over: window?.window) { [weak self] path in self?.openForm(path: path) }
    }

    func chooseForm() {
        guard formChooser == nil else { return }
        let chooser = FileChooser(
            title: tr("Open Form"), purpose: .open, acceptLabel: tr("_Open"), cancelLabel: tr("_Cancel"), over: window?.window
        )
        chooser.addFilter(tr("Form files (XLSForm, XForm)"), patterns: ["*.xlsx", "*.xls", "*.csv", "*.md", "*.xml"])
        formChooser = chooser
        chooser.show { [weak self] choice in
            self?.formChooser = nil
            if case .path(let path) = choice { self?.openForm(path: path) }
        }
    }

    // MARK: - Actions

    private var exitStatus: Int32 = 0

    /// Closes the window (which saves its state) and ends the run.
    func quit(status: Int32 = 0) {
        exitStatus = status
        window?.close()
        application.quit()
    }

    /// The window shown, for dialogs to stand over.
    var activeWindow: Window? { window?.window }

    /// The About window, as GNOME apps show it (libadwaita's), with what the
    /// metainfo says of the app.
    func showAbout() {
        AboutWindow(
            applicationName: tr("Survey Form"), icon: AppInfo.id, version: AppInfo.version,
            developerName: tr("The Survey Form developers"), comments: tr("Collect survey answers on this computer"),
            license: .mit, website: "https://github.com/surveyform/SurveyForm",
            issueURL: "https://github.com/surveyform/SurveyForm/issues", translatorCredits: tr("translator-credits")
        )
        .present(over: window?.window)
    }
}
