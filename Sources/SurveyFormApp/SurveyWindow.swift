import Foundation
import SurveyModel
import SurveyStorage
import TwoWayBinding
import GtkAppShell
import TwoWayBindingGtk

/// The survey window: `ui/survey-window.ui` bound to a `SurveyViewModel`.
///
/// Construction is a fixed list of steps; the behaviour lives in
/// `SurveyWindow+Actions.swift` and `SurveyWindow+Responses.swift`.
@MainActor
final class SurveyWindow {
    // MARK: - Template widgets

    let window: Window
    let nameEntry: Entry
    let companyEntry: Entry
    let yearsSpinButton: SpinButton
    let currentEmployerSwitch: Switch
    let salaryScale: Scale
    let commentsTextView: TextView
    let experienceLabel: Label
    let salaryValueLabel: Label
    let summaryLabel: Label
    let statusLabel: Label
    let responsesHeadingLabel: Label
    let syncStatusLabel: Label
    let submitButton: Widget
    let errorLabels: [SurveyField: Label]
    let responsesListView: ListView
    /// The stored responses, newest first, as the list shows them.
    let listedResponses = ObservableList<ListedResponse>()
    /// Reads the stored responses off the main thread; the newest reading wins.
    let responsesReading = LatestReading()
    let responsesPane: [Widget]

    // MARK: - Owned references

    let viewModel = SurveyViewModel()
    let drafts = DraftStore(directory: DataLocation.dataDirectory)
    private(set) var store: ResponseStore?
    /// Where the store says what became of each response.
    let storageEvents = EventBus()
    private(set) var autosave: DraftAutosave!
    private let windowState = WindowState(settings: .shared)
    /// The window's actions (`win.*`).
    let actions: ActionMap
    let bag = ObservationToken.Bag()
    let exportDialog = ExportDialog()

    /// Called once the window is gone.
    var onClose: (() -> Void)?

    /// Whether the person at the keyboard is a respondent: earlier answers,
    /// their count and export stay out of reach.
    let isKiosk: Bool

    init(application: SurveyApplication, kiosk: Bool) {
        isKiosk = kiosk
        let builder: Builder
        do {
            builder = try Builder(resource: "\(AppInfo.resourceBase)/ui/survey-window.ui")
            window = try builder.object("surveyWindow", as: Window.self)
            window.add(to: application.application)
            actions = try ActionMap(of: window)
            nameEntry = try builder.object("nameEntry", as: Entry.self)
            companyEntry = try builder.object("companyEntry", as: Entry.self)
            yearsSpinButton = try builder.object("yearsSpinButton", as: SpinButton.self)
            currentEmployerSwitch = try builder.object("currentEmployerSwitch", as: Switch.self)
            salaryScale = try builder.object("salaryScale", as: Scale.self)
            commentsTextView = try builder.object("commentsTextView", as: TextView.self)
            experienceLabel = try builder.object("experienceLabel", as: Label.self)
            salaryValueLabel = try builder.object("salaryValueLabel", as: Label.self)
            summaryLabel = try builder.object("summaryLabel", as: Label.self)
            statusLabel = try builder.object("statusLabel", as: Label.self)
            responsesHeadingLabel = try builder.object("responsesHeadingLabel", as: Label.self)
            syncStatusLabel = try builder.object("syncStatusLabel", as: Label.self)
            submitButton = try builder.object("submitButton", as: Widget.self)
            errorLabels = [
                .name: try builder.object("nameErrorLabel", as: Label.self),
                .companyName: try builder.object("companyErrorLabel", as: Label.self),
                .yearsOfExperience: try builder.object("yearsErrorLabel", as: Label.self),
                .approxSalary: try builder.object("salaryErrorLabel", as: Label.self),
                .comments: try builder.object("commentsErrorLabel", as: Label.self),
            ]
            responsesListView = try builder.object("responsesListView", as: ListView.self)
            try builder.menu("primaryMenu").prependSection(SurveyApplication.openingSection(shown: nil))
            responsesPane = [
                try builder.object("responsesHeadingLabel", as: Widget.self),
                try builder.object("responsesScrolledWindow", as: Widget.self),
            ]
        } catch {
            // The interface is compiled into the binary: this is a build defect.
            fatalError("the window's interface cannot be built: \(error)")
        }

        setupStorage(application)
        setupBindings()
        setupValidation()
        setupActions()
        setupWindowState()
        restoreDraft()
        setupAutosave()
        setupLifetime()
        setupKiosk()
        showResponsesList()
        refreshResponsesAfterFirstFrame()
        showDelivery()
    }

    // MARK: - Construction

    private func setupStorage(_ application: SurveyApplication) {
        // What storage says, from the thread that wrote: a stored response
        // joins the list and goes to the server; a failure is shown.
        storageEvents.subscribe(ResponseStored<SurveyResponse>.self) { [weak self] stored in
            self?.showStored(stored.response)
            SyncService.shared.sendSoon()
        }
        .store(in: bag)
        storageEvents.subscribe(StorageFailed.self) { [weak self] failure in
            self?.showStatus(failure.message, isError: true)
        }
        .store(in: bag)
        do {
            let store = try application.openResponseStore(events: storageEvents)
            self.store = store
            if let notice = storageNotice(store) { showStatus(notice, isError: true) }
        } catch {
            showStatus(error.localizedDescription, isError: true)
        }
    }

    private func setupBindings() {
        let errors = viewModel.inputErrors
        nameEntry.bind(with: viewModel.name)
        companyEntry.bind(with: viewModel.companyName)
        yearsSpinButton.bind(
            with: viewModel.yearsOfExperience,
            transform: .optional(.identity, placeholder: 0),
            options: BindingOptions(validation: errors[.yearsOfExperience])
        )
        currentEmployerSwitch.bind(with: viewModel.isCurrentEmployer)
        salaryScale.bind(
            with: viewModel.approxSalary,
            transform: .optional(.float, placeholder: 0),
            options: BindingOptions(validation: errors[.approxSalary])
        )
        commentsTextView.bind(with: viewModel.comments)

        experienceLabel.show(viewModel.experienceText)
        salaryValueLabel.show(viewModel.salaryText)
        summaryLabel.show(viewModel.summary, format: Self.summaryForDisplay)
    }

    private func setupValidation() {
        let widgets: [(SurveyField, Widget)] = [
            (.name, nameEntry),
            (.companyName, companyEntry),
            (.yearsOfExperience, yearsSpinButton),
            (.approxSalary, salaryScale),
            (.comments, commentsTextView),
        ]
        for (field, widget) in widgets {
            widget.showValidation(viewModel.shownValidation(for: field), message: errorLabels[field])
        }
    }

    /// Hidden widgets leave the accessibility tree and the focus chain, and a
    /// disabled action's menu item and shortcut are gone: nothing of the
    /// stored responses can be reached.
    private func setupKiosk() {
        guard isKiosk else { return }
        for widget in responsesPane { widget.isVisible = false }
        actions.setEnabled("export-csv", false)
    }

    private func setupWindowState() {
        windowState.restore(to: window)
    }

    private func restoreDraft() {
        do {
            switch try drafts.load() {
            case .none:
                break
            case .restored(let answers, let instanceID, let startedAt):
                viewModel.restore(answers, instanceID: instanceID, startedAt: startedAt)
                appendStatus(tr("Your unsent answers from last time were restored."), isError: false)
            case .setAside(let file):
                appendStatus(
                    String(format: tr("The saved draft was damaged. It was moved to %@."), file.movedTo.path),
                    isError: true
                )
            }
        } catch {
            appendStatus(error.localizedDescription, isError: true)
        }
    }

    private func setupAutosave() {
        let viewModel = viewModel, drafts = drafts
        autosave = DraftAutosave(
            changes: viewModel.answers,
            save: {
                if viewModel.answers.value == .empty {
                    try drafts.discard()
                } else {
                    try drafts.save(viewModel.answers.value, instanceID: viewModel.instanceID, startedAt: viewModel.startedAt)
                }
            },
            onError: { [weak self] message in self?.showStatus(message, isError: true) },
            onRecovered: { [weak self] solved in
                guard let self, statusLabel.text == solved else { return }
                clearStatus()
            }
        )
    }

    private func setupLifetime() {
        // Its size is read while the window is whole; by "destroy" it is not.
        window.onCloseRequest { [weak self] in
            guard let self else { return }
            windowState.save(from: window)
        }
        .store(in: bag)
        window.onDestroy { [weak self] in self?.windowDidClose() }.store(in: bag)
        // A status message is about the last thing done: the next edit clears it.
        viewModel.observeEdits { [weak self] in self?.clearStatus() }.store(in: bag)
    }

    /// The longest summary line shown; the validation rules allow far less.
    static let summaryLineLimit = 500

    /// The summary with each overlong line cut short: laying out a pasted
    /// 65,000-character name in a wrapping label takes GTK most of a minute.
    static func summaryForDisplay(_ summary: String) -> String {
        summary.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.count > summaryLineLimit ? $0.prefix(summaryLineLimit) + "…" : String($0) }
            .joined(separator: "\n")
    }

    // MARK: - Showing

    func present() {
        window.present()
        nameEntry.grabFocus()
    }

    func close() {
        window.close()
    }

    private func windowDidClose() {
        autosave.flush()
        bag.cancelAll()
        onClose?()
    }

    func showStatus(_ message: String, isError: Bool) {
        statusLabel.text = message
        statusLabel.removeStyleClass(isError ? "success" : "failure")
        statusLabel.addStyleClass(isError ? "failure" : "success")
    }

    /// Adds `message` below the one shown, so that a start-up problem with the
    /// database is not hidden by news about the draft.
    func appendStatus(_ message: String, isError: Bool) {
        let shown = statusLabel.text
        guard !shown.isEmpty else { return showStatus(message, isError: isError) }
        let shownIsError = statusLabel.hasStyleClass("failure")
        showStatus(shown + "\n" + message, isError: isError || shownIsError)
    }

    /// Clears the status, but for a draft that cannot be saved: that stays
    /// in view until a save succeeds, since every keystroke meanwhile is at risk.
    func clearStatus() {
        if let draftProblem = autosave?.problem {
            if statusLabel.text != draftProblem { showStatus(draftProblem, isError: true) }
            return
        }
        guard !statusLabel.text.isEmpty else { return }
        statusLabel.text = ""
    }
}

/// What the user is told about the database a window opened, if anything:
/// a damaged one was moved aside, or it came from a newer version.
@MainActor
func storageNotice(_ store: ResponseStore) -> String? {
    if let setAside = store.setAside {
        return String(
            format: tr("The response database was damaged. It was moved to %@ and a new one was started."),
            setAside.movedTo.path
        )
    }
    if store.isReadOnly {
        return tr("The response database was written by a newer version of Survey Form. Its responses can be read, but no new response can be stored.")
    }
    return nil
}
