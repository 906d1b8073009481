import CGtk
import Foundation
import SurveyModel
import SurveyStorage
import TwoWayBinding
import TwoWayBindingGtk

/// The window's actions (`win.*`): submit, undo, redo, export, close.
extension SurveyWindow {
    func setupActions() {
        addAction("submit") { [weak self] in self?.submit() }
        addAction("undo") { [weak self] in self?.viewModel.history.undo() }
        addAction("redo") { [weak self] in self?.viewModel.history.redo() }
        addAction("export-csv") { [weak self] in self?.chooseExportFile() }
        addAction("close") { [weak self] in self?.close() }

        // win.submit stays enabled so that Ctrl+S on an incomplete form says
        // what is missing; only the button waits until the form is valid.
        viewModel.isValid.observe(sendInitial: true) { [weak self] isValid in
            self?.submitButton.isSensitive = isValid
        }
        .store(in: bag)
        bindEnabled("undo", to: viewModel.history.canUndo)
        bindEnabled("redo", to: viewModel.history.canRedo)
    }

    private func addAction(_ name: String, _ handler: @escaping @MainActor () -> Void) {
        actions[name] = AppActions.add(name, to: OpaquePointer(gtkWindow), handler)
    }

    private func bindEnabled(_ name: String, to source: some ObservableValue<Bool>) {
        guard let action = actions[name] else { return }
        source.observe(sendInitial: true) { enabled in
            g_simple_action_set_enabled(action, enabled ? SF_TRUE : SF_FALSE)
        }
        .store(in: bag)
    }

    // MARK: - Submit

    /// Stores the answers, confirms, and clears the form for the next person.
    func submit() {
        // Text typed into the spin button counts even if focus never left it.
        yearsSpinButton.commitTypedText()
        guard viewModel.isValid.value else {
            touchedFields.value = Set(SurveyField.allCases)
            if let problem = viewModel.firstProblem {
                showStatus(problem.message, isError: true)
                focus(problem.field)
            }
            return
        }
        guard let store else {
            showStatus(tr("Responses cannot be saved: the response database could not be opened."), isError: true)
            return
        }
        do {
            isResettingForm = true
            defer { isResettingForm = false }
            try viewModel.submit { try store.insert($0) }
            touchedFields.value = []
        } catch {
            // The form keeps every answer; nothing is lost.
            showStatus(error.localizedDescription, isError: true)
            return
        }
        autosave.cancel()
        do {
            try drafts.discard()
        } catch {
            showStatus(error.localizedDescription, isError: true)
            return
        }
        refreshResponses()
        showStatus(tr("Response saved"), isError: false)
        nameEntry.grabFocus()
    }

    private func focus(_ field: SurveyField) {
        switch field {
        case .name: nameEntry.grabFocus()
        case .companyName: companyEntry.grabFocus()
        case .yearsOfExperience: yearsSpinButton.grabFocus()
        case .isCurrentEmployer: currentEmployerSwitch.grabFocus()
        case .approxSalary: salaryScale.grabFocus()
        case .comments: commentsTextView.grabFocus()
        }
    }

    // MARK: - Export

    func chooseExportFile() {
        guard fileChooser == nil, !isKiosk else { return }
        let chooser = gtk_file_chooser_native_new(
            tr("Export Responses"), gtkWindow, GTK_FILE_CHOOSER_ACTION_SAVE, tr("_Export"), tr("_Cancel")
        )!
        fileChooser = chooser
        gtk_file_chooser_set_current_name(chooser, "survey-responses.csv")
        handlers.append(SignalHandler.connect(UnsafeMutableRawPointer(chooser), signal: "response") { [weak self] response in
            self?.exportFileChosen(chooser, accepted: response == GTK_RESPONSE_ACCEPT.rawValue)
        })
        gtk_native_dialog_show(UnsafeMutablePointer(chooser))
    }

    private func exportFileChosen(_ chooser: OpaquePointer, accepted: Bool) {
        defer {
            fileChooser = nil
            g_object_unref(UnsafeMutableRawPointer(chooser))
        }
        guard accepted, let file = gtk_file_chooser_get_file(chooser) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let pathPointer = g_file_get_path(file) else {
            return showStatus(tr("Export needs a file on this computer."), isError: true)
        }
        let path = String(cString: pathPointer)
        g_free(pathPointer)
        guard let store else {
            return showStatus(tr("There are no responses to export: the response database could not be opened."), isError: true)
        }
        do {
            // The file chooser has asked before replacing a file.
            let count = try CSVExport.export(from: store, to: URL(fileURLWithPath: path), replacing: true)
            showStatus(
                String(format: trn("Exported %d response to %@", "Exported %d responses to %@", count), Int32(count), path),
                isError: false
            )
        } catch {
            showStatus(error.localizedDescription, isError: true)
        }
    }
}
