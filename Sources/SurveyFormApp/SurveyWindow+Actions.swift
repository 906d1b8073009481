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
        ShortcutsWindow.addAction(to: actions, of: window).store(in: bag)

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
        actions.add(name, handler).store(in: bag)
    }

    private func bindEnabled(_ name: String, to source: some ObservableValue<Bool>) {
        actions.bindEnabled(name, to: source).store(in: bag)
    }

    // MARK: - Submit

    /// Stores the answers, confirms, and clears the form for the next person.
    /// The write waits for the disk off the main thread; the answers stay in
    /// the form, and in the draft, until it is confirmed.
    func submit() {
        // Text typed into the spin button counts even if focus never left it.
        yearsSpinButton.commitTypedText()
        guard viewModel.isValid.value else {
            viewModel.revealProblems()
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
        let viewModel = viewModel
        Task { [weak self] in
            // On failure the form keeps every answer, and the store's
            // StorageFailed says why; nil: a submit was under way already.
            let stored = try? await viewModel.submit { response in
                try await offMainThread { try store.insert(response) }
            }
            if stored != nil { self?.didStore() }
        }
    }

    /// The form's part of a stored response; the list's and the server's
    /// come through the store's `ResponseStored`.
    private func didStore() {
        autosave.cancel()
        do {
            try drafts.discard()
        } catch {
            showStatus(error.localizedDescription, isError: true)
            return
        }
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
        guard !isKiosk else { return }
        exportDialog.present(
            over: window, suggestedName: "survey-responses.csv",
            export: { [weak self] url in
                guard let store = self?.store else {
                    throw StorageError(tr("There are no responses to export: the response database could not be opened."))
                }
                // The file chooser has asked before replacing a file.
                return try CSVExport.export(from: store, to: url, replacing: true)
            },
            report: { [weak self] message, isError in self?.showStatus(message, isError: isError) }
        )
    }
}
