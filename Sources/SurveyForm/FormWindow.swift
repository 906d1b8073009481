import CAdw
import CGtk
import FormEngine
import Foundation
import SurveyModel
import SurveyStorage
import TwoWayBinding
import TwoWayBindingGtk

/// A window collecting responses to a form opened from a file: a libadwaita
/// window with the form's title in the header bar, its questions in boxed
/// lists (see `FormRenderer`), Submit at the end, and "Response saved" as a
/// toast with Undo.
@MainActor
final class FormWindow: AppWindow {
    let gtkWindow: UnsafeMutablePointer<GtkWindow>
    let form: FormFile
    let viewModel: FormViewModel
    var onClose: (() -> Void)?

    private let store: ResponseStore?
    private let page: UnsafeMutablePointer<GtkWidget>
    private let toastOverlay: UnsafeMutablePointer<GtkWidget>
    private let statusLabel: Label
    private var renderer: FormRenderer!
    private var startedAt = Date()
    private let windowState = WindowState(settings: .shared)
    private var handlers: [SignalHandler] = []
    private var actions: [String: OpaquePointer] = [:]
    private let bag = ObservationBag()

    /// Whether the person at the keyboard is a respondent (see `--kiosk`).
    let isKiosk: Bool

    init(application: SurveyApplication, form: FormFile, kiosk: Bool) throws(FormDefinitionError) {
        self.form = form
        isKiosk = kiosk
        viewModel = try FormViewModel(
            definition: form.definition,
            language: FormViewModel.startLanguage(form.definition, preferring: Localization.preferredLanguages)
        )
        do {
            store = try ResponseStore(directory: DataLocation.dataDirectory)
        } catch {
            store = nil
        }

        let window = adw_application_window_new(application.application)!
        gtkWindow = window.cast(to: GtkWindow.self)
        gtk_window_set_title(gtkWindow, form.definition.settings.title)

        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        let header = adw_header_bar_new()!
        let title = adw_window_title_new(form.definition.settings.title, Self.subtitle(of: form))!
        adw_header_bar_set_title_widget(OpaquePointer(header), title)
        let menuButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(OpaquePointer(menuButton), "open-menu-symbolic")
        gtk_widget_set_tooltip_text(menuButton, tr("Main Menu"))
        Widget.wrapping(menuButton).accessibleLabel = tr("Main Menu")
        gtk_menu_button_set_primary(OpaquePointer(menuButton), SF_TRUE)
        adw_header_bar_pack_end(OpaquePointer(header), menuButton)
        gtk_box_append(content.cast(to: GtkBox.self), header)

        toastOverlay = adw_toast_overlay_new()!
        gtk_widget_set_vexpand(toastOverlay, SF_TRUE)
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(scrolled.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(OpaquePointer(clamp), 720)
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 24)!
        for margin in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { margin(column, 24) }
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(column, 12) }
        page = gtk_box_new(GTK_ORIENTATION_VERTICAL, 24)!
        gtk_box_append(column.cast(to: GtkBox.self), page)

        // Submit, and a status line a screen reader can read (a toast is not
        // announced by GTK 4.8's AT-SPI bridge).
        let footer = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        let status = gtk_label_new(nil)!
        gtk_label_set_xalign(OpaquePointer(status), 0)
        gtk_label_set_wrap(OpaquePointer(status), SF_TRUE)
        gtk_widget_set_hexpand(status, SF_TRUE)
        statusLabel = Label.wrapping(status)
        gtk_box_append(footer.cast(to: GtkBox.self), status)
        let submit = gtk_button_new()!
        let submitLabel = gtk_label_new_with_mnemonic(tr("_Submit"))!
        gtk_label_set_mnemonic_widget(OpaquePointer(submitLabel), submit)
        gtk_button_set_child(submit.cast(to: GtkButton.self), submitLabel)
        gtk_widget_add_css_class(submit, "suggested-action")
        gtk_widget_add_css_class(submit, "pill")
        gtk_actionable_set_action_name(OpaquePointer(submit), "win.submit")
        gtk_box_append(footer.cast(to: GtkBox.self), submit)
        gtk_box_append(column.cast(to: GtkBox.self), footer)

        adw_clamp_set_child(OpaquePointer(clamp), column)
        gtk_scrolled_window_set_child(scrolled.opaque, clamp)
        adw_toast_overlay_set_child(OpaquePointer(toastOverlay), scrolled)
        gtk_box_append(content.cast(to: GtkBox.self), toastOverlay)
        adw_application_window_set_content(window.cast(to: AdwApplicationWindow.self), content)

        renderer = makeRenderer()
        setupActions()
        gtk_menu_button_set_menu_model(OpaquePointer(menuButton), makeMenu())
        windowState.restore(to: gtkWindow)
        if let problem = storageProblem { showStatus(problem, isError: true) }
        handlers.append(SignalHandler.connect(gtkWindow, signal: "destroy") { [weak self] in
            self?.windowDidClose()
        })
    }

    private static func subtitle(of form: FormFile) -> String? {
        form.version.isEmpty ? nil : String(format: tr("Version %@"), form.version)
    }

    private var storageProblem: String? {
        guard let store else { return tr("Responses cannot be saved: the response database could not be opened.") }
        if store.isReadOnly {
            return tr("The response database was written by a newer version of Survey Form. Its responses can be read, but no new response can be stored.")
        }
        return nil
    }

    private func makeRenderer() -> FormRenderer {
        FormRenderer(viewModel: viewModel, page: page) { [weak self] in
            guard let self else { return }
            _ = gtk_widget_child_focus(gtkWindow.cast(to: GtkWidget.self), GTK_DIR_TAB_FORWARD)
        }
    }

    // MARK: - Showing

    func present() {
        gtk_window_present(gtkWindow)
        renderer.focusFirstQuestion()
    }

    func close() {
        gtk_window_close(gtkWindow)
    }

    private func windowDidClose() {
        windowState.save(from: gtkWindow)
        renderer.tearDown(removingWidgets: false)
        bag.cancelAll()
        onClose?()
    }

    private func showStatus(_ message: String, isError: Bool) {
        statusLabel.text = message
        guard let pointer = statusLabel.pointer else { return }
        gtk_widget_remove_css_class(pointer, isError ? "success" : "error")
        gtk_widget_add_css_class(pointer, isError ? "error" : "success")
    }

    // MARK: - Actions

    private func setupActions() {
        addAction("submit") { [weak self] in self?.submit() }
        addAction("close") { [weak self] in self?.close() }
        addLanguageAction()
    }

    private func addAction(_ name: String, _ handler: @escaping @MainActor () -> Void) {
        actions[name] = AppActions.add(name, to: OpaquePointer(gtkWindow), handler)
    }

    /// `win.form-language`: the form's languages as radio items of the menu.
    private func addLanguageAction() {
        guard viewModel.definition.languages.count > 1 else { return }
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        let action = g_simple_action_new_stateful("form-language", type, g_variant_new_string(viewModel.language.value ?? ""))!
        let changeState: @convention(c) (OpaquePointer, OpaquePointer, gpointer) -> Void = { action, value, data in
            MainActor.assumeIsolated {
                let window = Unmanaged<FormWindow>.fromOpaque(data).takeUnretainedValue()
                let language = String(cString: g_variant_get_string(value, nil))
                window.viewModel.language.value = language
                g_simple_action_set_state(action, value)
            }
        }
        // The window outlives its actions' signals: they go with the window.
        sf_signal_connect(
            UnsafeMutableRawPointer(action), "change-state", unsafeBitCast(changeState, to: GCallback.self),
            Unmanaged.passUnretained(self).toOpaque(), nil, SF_FALSE
        )
        g_action_map_add_action(OpaquePointer(gtkWindow), action)
        actions["form-language"] = action
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    private func makeMenu() -> UnsafeMutablePointer<GMenuModel> {
        let menu = g_menu_new()!
        let formSection = g_menu_new()!
        g_menu_append(formSection, tr("_Open Form…"), "app.open-form")
        g_menu_append_section(menu, nil, formSection.cast(to: GMenuModel.self))
        g_object_unref(UnsafeMutableRawPointer(formSection))
        if actions["form-language"] != nil {
            let languages = g_menu_new()!
            for language in viewModel.definition.languages {
                let item = g_menu_item_new(Self.languageTitle(language), nil)!
                g_menu_item_set_action_and_target_value(item, "win.form-language", g_variant_new_string(language))
                g_menu_append_item(languages, item)
                g_object_unref(UnsafeMutableRawPointer(item))
            }
            g_menu_append_submenu(menu, tr("Form _Language"), languages.cast(to: GMenuModel.self))
            g_object_unref(UnsafeMutableRawPointer(languages))
        }
        let appSection = g_menu_new()!
        g_menu_append(appSection, tr("_Keyboard Shortcuts"), "win.show-help-overlay")
        g_menu_append(appSection, tr("_About Survey Form"), "app.about")
        g_menu_append(appSection, tr("_Quit"), "app.quit")
        g_menu_append_section(menu, nil, appSection.cast(to: GMenuModel.self))
        g_object_unref(UnsafeMutableRawPointer(appSection))
        return menu.cast(to: GMenuModel.self)
    }

    /// A form language as the menu shows it: `Deutsch (de)` as written,
    /// the unnamed language as "Default".
    private static func languageTitle(_ language: String) -> String {
        language == FormDefinition.defaultLanguageName ? tr("Default") : language
    }

    // MARK: - Submit

    /// Stores the response, confirms it with a toast (Undo takes it back),
    /// and starts a blank one. A refused submit shows every message and
    /// focuses the first question that needs an answer.
    func submit() {
        guard viewModel.isValid.value else {
            renderer.revealProblems()
            if let problem = viewModel.firstProblem {
                showStatus(problem.message, isError: true)
                renderer.focus(problem.state)
            }
            return
        }
        guard let store else {
            showStatus(tr("Responses cannot be saved: the response database could not be opened."), isError: true)
            return
        }
        let response = FormResponse(
            formID: form.id, formVersion: form.version, instanceID: viewModel.instanceID,
            startedAt: startedAt, submittedAt: Date(),
            answers: viewModel.answers().map { FormResponse.Answer(path: $0.path, value: $0.value) }
        )
        let stored: FormResponse
        do {
            stored = try store.insert(response)
        } catch {
            // The form keeps every answer; nothing is lost.
            showStatus(error.localizedDescription, isError: true)
            return
        }
        startNewResponse()
        showStatus(tr("Response saved"), isError: false)
        showToast(tr("Response saved"), undo: { [weak self] in self?.takeBack(stored) })
    }

    private func startNewResponse() {
        renderer.tearDown()
        viewModel.reset()
        startedAt = Date()
        renderer = makeRenderer()
        renderer.focusFirstQuestion()
    }

    /// Undo of a submit: the response leaves the database and its answers
    /// come back into the form, under the same instance id.
    private func takeBack(_ response: FormResponse) {
        guard let store, let id = response.id else { return }
        do {
            try store.deleteResponse(id: id)
        } catch {
            showStatus(error.localizedDescription, isError: true)
            return
        }
        renderer.tearDown()
        viewModel.reset()
        // Answers outside repeats come back by name; paths end in the name.
        var answers: [String: String] = [:]
        for answer in response.answers where !answer.path.contains("[") {
            answers[String(answer.path.split(separator: "/").last ?? "")] = answer.value
        }
        viewModel.load(answers)
        viewModel.resume(instanceID: response.instanceID)
        startedAt = response.startedAt
        renderer = makeRenderer()
        renderer.focusFirstQuestion()
        showStatus(tr("The response was taken back; it is in the form again."), isError: false)
    }

    private func showToast(_ message: String, undo: @escaping @MainActor () -> Void) {
        let toast = adw_toast_new(message)!
        adw_toast_set_button_label(toast, tr("_Undo"))
        adw_toast_set_timeout(toast, 5)
        handlers.append(SignalHandler.connect(UnsafeMutableRawPointer(toast), signal: "button-clicked", undo))
        adw_toast_overlay_add_toast(OpaquePointer(toastOverlay), toast)
    }
}
