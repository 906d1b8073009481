import FormEngine
import Foundation
import OpenRosa
import SurveyStorage
import TwoWayBinding
import TwoWayBindingAdw
import GtkAppShell
import TwoWayBindingGtk

/// The window collecting responses to a form, from a file or built in: a
/// libadwaita window with the form's title in the header bar, its questions
/// in boxed lists (see `FormRenderer`), Submit at the end with the summary
/// below, "Response saved" as a toast with Undo, and the stored responses
/// beside the form.
@MainActor
final class FormWindow: AppWindow {
    let window: Window
    let form: FormFile
    let viewModel: FormViewModel
    var onClose: (() -> Void)?

    /// The response database, while it opens and once it has.
    var storeState: StoreState
    /// What the window said at start of its draft, shown again beside any
    /// news of the database that arrives later.
    var draftNews: (message: String, isError: Bool)?
    let drafts = FormDraftStore(directory: DataLocation.dataDirectory)
    /// The files answers name, in the response's own folder.
    let attachments = AttachmentStore(directory: DataLocation.dataDirectory)
    private lazy var files = ResponseFiles(
        store: attachments, instanceID: { [unowned self] in viewModel.instanceID },
        ready: { [weak self] in await self?.storeOpened() }
    )
    var autosave: DraftAutosave!
    private let page: Box
    private let toastOverlay: ToastOverlay
    /// The stored responses, newest first, as the list shows them.
    let listedResponses = ObservableList<ListedResponse>()
    let responsesListView: ListView
    let responsesHeadingLabel: Label
    /// Reads the stored responses off the main thread; the newest reading wins.
    let responsesReading = LatestReading()
    /// Whether a response is being written.
    private var isStoring = false
    /// Set while the window replaces the answers as a whole (a new blank
    /// response, one taken back), which is no edit of the user's.
    private var isReplacingAnswers = false
    /// Where the store says what became of each response.
    let storageEvents = EventBus()
    let exportDialog = ExportDialog()
    private let statusLabel: Label
    /// The answers so far, while the summary is open.
    private let summaryExpander: Widget
    private let summaryLabel: Label
    private let isSummaryOpen = Observable(true)
    private let pageLabel: Label
    private let backButton: Widget
    private let nextButton: Widget
    private let submitButton: Widget
    /// The main menu, and its parts that change with the form and the
    /// recent forms (the rest is in the window's `.ui`).
    private let primaryMenu: Menu
    /// The header's title and subtitle (the form's version, or the edit under way).
    private let windowTitle: Widget
    /// The stored revision the form now edits; `nil` for a new response.
    var editedRevision: EditedRevision? {
        didSet {
            isEditing.value = editedRevision != nil
            showSubtitle()
        }
    }
    let isEditing = Observable(false)
    private let languageSection: Menu
    var renderer: FormRenderer!
    /// Each answer's kind by question path, from the form's types.
    private lazy var answerKinds = FormCSVExporter.answerKinds(of: form.definition)
    var startedAt = Date()
    private let windowState = WindowState(settings: .shared)
    /// The window's actions (`win.*`).
    private let actions: ActionMap
    let bag = ObservationToken.Bag()
    private var draftOffer: MessageDialog?
    /// Whether this version's own draft was taken up at start.
    private var restoredOwnDraft = false
    /// Whether the form holds a response begun here, not a draft's or an edit's.
    var isNewResponse: Bool { !restoredOwnDraft && editedRevision == nil }
    /// The toast showing, and what its Undo does.
    private var currentToast: Toast?
    /// Toasts shown so far: a toast's Undo and its going away act only while
    /// it is the newest.
    private var toastsShown = 0
    /// The toast waiting for the frame that shows the change it reports.
    private var pendingToast: ObservationToken?

    /// The form's audit log, when it has an `audit` row.
    lazy var audit = AuditLog(definition: form.definition)

    /// Whether the person at the keyboard is a respondent (see `--kiosk`).
    let isKiosk: Bool

    init(application: SurveyApplication, form: FormFile, kiosk: Bool) throws(FormDefinitionError) {
        self.form = form
        isKiosk = kiosk
        viewModel = try FormViewModel(
            plan: form.plan,
            language: FormViewModel.startLanguage(form.definition, preferring: Localization.preferredLanguages),
            environment: Settings.shared.formMetadata.environment
        )
        let builder: Builder
        var offeredMend: Button?
        do {
            builder = try Builder(resource: "\(AppInfo.resourceBase)/ui/form-window.ui")
            window = try builder.object("formWindow", as: Window.self)
            window.add(to: application.application)
            actions = try ActionMap(of: window)
            window.title = form.title
            windowTitle = try builder.object("windowTitle", as: Widget.self)
            try windowTitle.set(.string("title"), to: form.title)
            primaryMenu = try builder.menu("primaryMenu")
            languageSection = try builder.menu("languageSection")
            toastOverlay = try ToastOverlay(builder.object("toastOverlay", as: Widget.self))
            page = try builder.object("page", as: Box.self)
            statusLabel = try builder.object("statusLabel", as: Label.self)
            summaryLabel = try builder.object("summaryLabel", as: Label.self)
            summaryExpander = try builder.object("summaryExpander", as: Widget.self)
            pageLabel = try builder.object("pageLabel", as: Label.self)
            backButton = try builder.object("backButton", as: Widget.self)
            nextButton = try builder.object("nextButton", as: Widget.self)
            submitButton = try builder.object("submitButton", as: Widget.self)
            let deliveryLabel = try builder.object("deliveryLabel", as: Label.self)
            let mendButton = try builder.object("mendServerButton", as: Button.self)
            responsesListView = try builder.object("responsesListView", as: ListView.self)
            responsesHeadingLabel = try builder.object("responsesHeadingLabel", as: Label.self)
            // A respondent sees no earlier answers: the list is never filled,
            // and hidden it is out of the accessibility tree and the focus chain.
            if kiosk {
                try builder.object("responsesPane", as: Widget.self).isVisible = false
            } else {
                SyncService.shared.show(in: deliveryLabel, mend: mendButton)
                offeredMend = mendButton
            }
        } catch {
            // The interface is compiled into the binary: this is a build defect.
            fatalError("the form window's interface cannot be built: \(error)")
        }

        // The database opens on a thread of its own meanwhile: checking the
        // pages of 100,000 responses takes longer than building the window,
        // so the window takes the store only if it is ready now, and else
        // once it has drawn its first frame (or a use of it cannot wait).
        storeState = .opening(application.openResponseStore())

        // The draft's answers are in place before any widget is bound.
        draftNews = restoreDraft()
        showSubtitle()
        audit?.record(restoredOwnDraft ? "form resume" : "form start", at: Date())
        renderer = makeRenderer()
        followLanguageDirection()
        setupActions()
        setupStorageEvents()
        fillMenu()
        windowState.restore(to: window)
        if let draftNews { showStatus(draftNews.message, isError: draftNews.isError) }
        if case .opening(let opening) = storeState, opening.isFinished { takeStore() }
        setupAutosave()
        setupSummary()
        updatePageControls()
        showResponsesList()
        refreshResponsesAfterFirstFrame()
        // A form server refused its login or its certificate was not
        // trusted: Preferences, at its password or its authority.
        offeredMend?.onClicked { [weak self] in
            PreferencesWindow.present(over: self?.window, mending: SyncService.shared.status.value.serverToMend)
        }
        .store(in: bag)
        // Each round of sending moves rows from waiting to sent.
        SyncService.shared.roundsFinished.observe { [weak self] _ in self?.refreshResponses() }.store(in: bag)
        // Its size is read while the window is whole; by "destroy" it is not.
        window.onCloseRequest { [weak self] in
            guard let self else { return }
            windowState.save(from: window)
        }
        .store(in: bag)
        window.onDestroy { [weak self] in self?.windowDidClose() }.store(in: bag)
        if audit != nil {
            window.onFocusChange { [weak self] widget in self?.auditFocus(on: widget) }.store(in: bag)
        }
        // A status message is about the last thing done: the next edit clears it.
        viewModel.answerChanges.observeChange { [weak self] in
            guard let self, !isReplacingAnswers else { return }
            clearStatus()
        }
        .store(in: bag)
    }

    /// The summary follows the answers while it is open, as it is at first
    /// (Alt+U closes it).
    private func setupSummary() {
        do {
            try summaryExpander.bind(.boolean("expanded"), with: isSummaryOpen).store(in: bag)
        } catch {
            // The interface is compiled into the binary: this is a build defect.
            fatalError("the summary's expander cannot be bound: \(error)")
        }
        isSummaryOpen.observe(sendInitial: true) { [weak self] isOpen in
            guard let self else { return }
            if isOpen {
                summaryLabel.show(viewModel.summary, format: Self.summaryForDisplay)
            } else {
                summaryLabel.binder?.unbind()
                summaryLabel.text = ""
            }
        }
        .store(in: bag)
    }

    /// A file's version; the built-in survey's is the app's own business.
    /// The longest summary line shown.
    static let summaryLineLimit = 500

    /// The summary with each overlong line cut short: laying out a pasted
    /// 65,000-character answer in a wrapping label takes GTK most of a minute.
    static func summaryForDisplay(_ summary: String) -> String {
        summary.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.count > summaryLineLimit ? $0.prefix(summaryLineLimit) + "…" : String($0) }
            .joined(separator: "\n")
    }

    private static func subtitle(of form: FormFile) -> String? {
        form.version.isEmpty ? nil : String(format: tr("Version %@"), form.version)
    }

    /// The form's version, or, while a stored response is edited, which.
    private func showSubtitle() {
        let subtitle = editedRevision.map(Self.editingLine) ?? Self.subtitle(of: form) ?? ""
        try? windowTitle.set(.string("subtitle"), to: subtitle)
    }

    func makeRenderer() -> FormRenderer {
        let media = form.path.map { FormMedia(besideFormAt: URL(fileURLWithPath: $0)) } ?? .none
        let renderer = FormRenderer(viewModel: viewModel, page: page, files: files, media: media) { [weak self] in
            guard let self else { return }
            // Past the question's other controls; bounded, as Tab wraps around.
            let question = QuestionCard.containing(window.focusedWidget)
            var steps = 0
            repeat {
                window.moveFocus(.forward)
                steps += 1
            } while question != nil && QuestionCard.containing(window.focusedWidget) === question
                && steps < 100
        }
        renderer.onPageChange = { [weak self] in self?.updatePageControls() }
        return renderer
    }

    /// Back and Next for the page shown, Submit on the last; all but Submit
    /// hidden when the form shows at once.
    private func updatePageControls() {
        guard let renderer else { return }
        let paged = renderer.isPaged
        let hasNext = renderer.hasNextPage
        backButton.isVisible = paged
        pageLabel.isVisible = paged
        nextButton.isVisible = paged && hasNext
        submitButton.isVisible = !(paged && hasNext)
        actions.setEnabled("previous-page", renderer.hasPreviousPage)
        actions.setEnabled("next-page", hasNext)
        let position = renderer.pagePosition
        pageLabel.text = paged ? String(format: tr("Page %d of %d"), Int32(position.page), Int32(position.of)) : ""
    }

    // MARK: - Showing

    func present() {
        window.present()
        renderer.focusFirstQuestion()
        offerDraftOfOtherVersion()
    }

    func close() {
        window.close()
    }

    private func windowDidClose() {
        autosave.flush()
        renderer.tearDown(removingWidgets: false)
        bag.cancelAll()
        // The next window is laid out as the desktop's language runs.
        TextDirection.default = .ofLocale
        onClose?()
    }

    func replacingAnswers(_ replace: () -> Void) {
        isReplacingAnswers = true
        defer { isReplacingAnswers = false }
        replace()
    }

    /// Clears the status, but for a draft that cannot be saved: that stays
    /// in view until a save succeeds, since every keystroke meanwhile is at risk.
    private func clearStatus() {
        if let draftProblem = autosave?.problem {
            if statusLabel.text != draftProblem { showStatus(draftProblem, isError: true) }
            return
        }
        if !statusLabel.text.isEmpty { statusLabel.text = "" }
    }

    func showStatus(_ message: String, isError: Bool) {
        statusLabel.text = message
        statusLabel.removeStyleClass(isError ? "success" : "error")
        statusLabel.addStyleClass(isError ? "error" : "success")
    }

    // MARK: - Drafts

    /// Takes up this form version's draft, if one was left; says what happened.
    private func restoreDraft() -> (message: String, isError: Bool)? {
        do {
            switch try drafts.load(formID: form.id, version: form.version) {
            case .none:
                return nil
            case .restored(let draft):
                take(draft)
                restoredOwnDraft = true
                return (tr("Your unsent answers from last time were restored."), false)
            case .setAside(let file):
                return (String(format: tr("The saved draft was damaged. It was moved to %@."), file.movedTo.path), true)
            }
        } catch {
            return (error.localizedDescription, true)
        }
    }

    private func take(_ draft: FormDraft) {
        viewModel.restore(draft.answers.map { ($0.path, $0.value) })
        viewModel.resume(instanceID: draft.instanceID)
        startedAt = draft.startedAt
        // An edit left unsubmitted is that edit still.
        editedRevision = draft.deprecatedID.map { EditedRevision(instanceID: $0, title: "") }
    }

    private func setupAutosave() {
        autosave = DraftAutosave(
            changes: viewModel.answerChanges,
            save: { [weak self] in try self?.saveDraft() },
            onError: { [weak self] message in self?.showStatus(message, isError: true) },
            onRecovered: { [weak self] solved in
                guard let self, statusLabel.text == solved else { return }
                statusLabel.text = ""
            }
        )
    }

    func saveDraft() throws {
        try drafts.save(FormDraft(
            formID: form.id, formVersion: form.version, instanceID: viewModel.instanceID, startedAt: startedAt,
            answers: storedAnswers(), deprecatedID: editedRevision?.instanceID
        ))
    }

    /// The answers as storage keeps them, each with the kind its question's
    /// type gives it (a number, an acknowledgement).
    private func storedAnswers() -> [FormResponse.Answer] {
        viewModel.answers().map { answer in
            FormResponse.Answer(path: answer.path, value: answer.value, kind: answerKinds[FormCSVExporter.templatePath(answer.path)])
        }
    }

    /// With no draft of its own, a form whose other version left one asks
    /// whether to carry its answers over (those whose questions this version
    /// still has) or keep it for that version.
    private func offerDraftOfOtherVersion() {
        guard draftOffer == nil, !restoredOwnDraft, let draft = drafts.drafts(of: form.id, otherThan: form.version).first else {
            return
        }
        let formatter = DateFormatter.desktopMedium
        let dialog = MessageDialog(
            over: window, heading: tr("Carry Over Unsent Answers?"),
            body: String(
                format: tr("Answers to version %@ of this form, last saved %@, were never submitted. They can be carried over to this version, leaving out questions it no longer has, or kept for version %@."),
                draft.formVersion, formatter.string(from: draft.savedAt), draft.formVersion
            )
        )
        dialog.addResponse("keep", label: String(format: tr("_Keep for Version %@"), draft.formVersion))
        dialog.addResponse("carry", label: tr("_Carry Over"), appearance: .suggested)
        dialog.defaultResponse = "carry"
        dialog.closeResponse = "keep"
        draftOffer = dialog
        dialog.present { [weak self] response in
            self?.draftOffer = nil
            guard response == "carry" else { return }
            self?.carryOver(draft)
        }
    }

    /// The other version's draft becomes this version's; its own file goes
    /// only once the answers are safe in the new one.
    private func carryOver(_ draft: FormDraft) {
        renderer.tearDown()
        replacingAnswers {
            viewModel.reset()
            take(draft)
        }
        renderer = makeRenderer()
        renderer.focusFirstQuestion()
        do {
            try saveDraft()
            try drafts.discard(formID: draft.formID, version: draft.formVersion)
            showStatus(String(format: tr("The answers to version %@ were carried over."), draft.formVersion), isError: false)
        } catch {
            showStatus(error.localizedDescription, isError: true)
        }
    }

    // MARK: - Actions

    private func setupActions() {
        addAction("submit") { [weak self] in self?.submit() }
        addAction("previous-page") { [weak self] in self?.renderer.goBack() }
        addAction("next-page") { [weak self] in self?.renderer.goForward() }
        addAction("close") { [weak self] in self?.close() }
        ShortcutsWindow.addAction(to: actions, of: window).store(in: bag)
        addAction("export-csv") { [weak self] in self?.chooseExportFile() }
        addAction("cancel-edit") { [weak self] in self?.cancelEditing() }
        bindEnabled("cancel-edit", to: isEditing)
        // Ctrl+Z undoes an answer, as everywhere; a submit or a delete is
        // taken back with its toast's Undo.
        addAction("undo") { [weak self] in self?.viewModel.history.undo() }
        addAction("redo") { [weak self] in self?.viewModel.history.redo() }
        bindEnabled("undo", to: viewModel.history.canUndo)
        bindEnabled("redo", to: viewModel.history.canRedo)
        // win.submit stays enabled so that Ctrl+S on an incomplete form says
        // what is missing; only the button waits until the form is valid.
        viewModel.isValid.observe(sendInitial: true) { [weak self] isValid in
            self?.submitButton.isSensitive = isValid
        }
        .store(in: bag)
        if isKiosk { actions.setEnabled("export-csv", false) }
        addLanguageAction()
    }

    private func addAction(_ name: String, _ handler: @escaping @MainActor () -> Void) {
        actions.add(name, handler).store(in: bag)
    }

    private func bindEnabled(_ name: String, to flag: Observable<Bool>) {
        flag.observe(sendInitial: true) { [weak self] in self?.actions.setEnabled(name, $0) }.store(in: bag)
    }

    /// A form in a language written right to left (Arabic, Dari, Hebrew)
    /// lays the window out right to left, with Tab and the arrows following
    /// it; another language gives the desktop's direction back.
    private func followLanguageDirection() {
        viewModel.language.observe(sendInitial: true) { language in
            TextDirection.default = FormDefinition.isRightToLeft(language) ? .rightToLeft : .ofLocale
        }
        .store(in: bag)
    }

    /// `win.form-language`: the form's languages as radio items of the menu.
    private func addLanguageAction() {
        guard viewModel.definition.languages.count > 1 else { return }
        actions.addChoice("form-language", state: viewModel.language.value ?? "") { [weak self] language in
            self?.viewModel.language.value = language
        }
        .store(in: bag)
    }

    /// Open Form… and the recent forms first, and the form's languages
    /// when it has more than one.
    private func fillMenu() {
        primaryMenu.prependSection(SurveyApplication.openingSection(shown: form.path))
        let editing = Menu()
        editing.append(tr("Cancel _Edit"), action: "win.cancel-edit", hiddenWhenDisabled: true)
        primaryMenu.appendSection(editing)
        guard viewModel.definition.languages.count > 1 else { return }
        let languages = Menu()
        for language in viewModel.definition.languages {
            languages.append(Self.languageTitle(language), action: "win.form-language", target: language)
        }
        languageSection.appendSubmenu(languages, label: tr("Form _Language"))
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
        renderer.commitTypedNumber()
        guard viewModel.isValid.value else {
            viewModel.revealProblems()
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
        let answers = storedAnswers()
        if let missing = missingAttachment(in: answers) {
            showStatus(missing.message, isError: true)
            if let state = missing.state { renderer.focus(state) }
            return
        }
        let response = FormResponse(
            formID: form.id, formVersion: form.version, instanceID: viewModel.instanceID,
            startedAt: startedAt, submittedAt: Date(),
            title: viewModel.instanceName() ?? FormResponse.defaultTitle(answers), answers: answers,
            deprecatedID: editedRevision?.instanceID
        )
        // The write waits for the disk off the main thread; the answers stay
        // in the form, and in the draft, until it is confirmed. A second
        // submit meanwhile stores nothing.
        guard !isStoring else { return }
        isStoring = true
        let destination = deliveryDestination()
        let attachments = attachments
        let auditLog = auditCSV(finishing: response.submittedAt)
        Task { [weak self] in
            var stored: FormResponse?
            do {
                stored = try await offMainThread {
                    if let auditLog {
                        // Before the response: a response stored names only files that exist.
                        do {
                            try attachments.write(Data(auditLog.utf8), named: AuditLog.fileName, instanceID: response.instanceID)
                        } catch {
                            throw AuditNotWritten(message: error.localizedDescription)
                        }
                    }
                    let stored = try store.insert(response, for: destination())
                    // Files replaced or removed while it was filled in go now;
                    // stored, the response keeps those it names.
                    try? attachments.keepOnly(Set(stored.attachmentNames), instanceID: stored.instanceID)
                    return stored
                }
            } catch let error as AuditNotWritten {
                // Nothing was stored, and the store was not asked: the window says why.
                self?.showStatus(String(format: tr("The response was not saved: %@"), error.message), isError: true)
            } catch {
                // The store's StorageFailed says why.
            }
            self?.isStoring = false
            // On failure the form keeps every answer.
            if let stored { self?.didStore(stored) }
        }
    }

    /// Where the response now submitted goes, found off the main thread
    /// (the server's record is a file): the OpenRosa server the form was
    /// downloaded from, with the instance XML that server is sent (made
    /// here, from the form's answers, only for a form of the library), else
    /// the shared server.
    private func deliveryDestination() -> @Sendable () -> DeliveryDestination {
        let library = DataLocation.formLibrary
        guard let path = form.path, library.holds(URL(fileURLWithPath: path)) else { return { .sharedServer } }
        let xml = SubmissionXML.document(
            for: form.definition, answers: viewModel.answers(), instanceID: viewModel.instanceID,
            instanceName: viewModel.instanceName(), deprecatedID: editedRevision?.instanceID, entities: viewModel.entities()
        )
        let publicKey = form.definition.settings.publicKey
        return {
            guard let server = library.server(forFormAt: URL(fileURLWithPath: path)) else { return .sharedServer }
            return .openRosa(server: server.url.absoluteString, submission: xml, publicKey: publicKey)
        }
    }

    /// The audit log as stored with a response submitted at `time`: the
    /// question focused left, the response finalized; `nil` without an
    /// audit row.
    private func auditCSV(finishing time: Date) -> String? {
        guard let audit else { return nil }
        audit.leave(at: time)
        audit.record("form finalize", at: time)
        return audit.csv(user: Settings.shared.formMetadata.username)
    }

    /// Logs focus moving to the question holding `widget` (or out of every question).
    private func auditFocus(on widget: Widget?) {
        guard let audit, let renderer else { return }
        let state = renderer.state(containing: widget)
        audit.focus(state, node: state.flatMap { viewModel.answerPath(of: $0) }.map { "/data/" + $0 }, at: Date())
    }

    /// The first answer naming a file that is no longer in the response's
    /// folder (removed behind the app's back): a response is never stored
    /// without a file it names.
    private func missingAttachment(in answers: [FormResponse.Answer]) -> (message: String, state: QuestionState?)? {
        // The audit log is written with the response, after this check.
        for answer in answers where answer.kind == .attachment && !answer.value.isEmpty && answer.value != AuditLog.fileName {
            guard let url = files.url(of: answer.value), !FileManager.default.fileExists(atPath: url.path) else { continue }
            let state = viewModel.allStates.first { $0.question.type.isAttachment && $0.value.value == answer.value }
            return (String(format: tr("The file %@ is missing from this response: choose it again, or remove it."), answer.value), state)
        }
        return nil
    }

    /// What storage says, from the thread that wrote: a stored response
    /// shows in the list, a failure in the status.
    private func setupStorageEvents() {
        storageEvents.subscribe(ResponseStored.self) { [weak self] stored in self?.showStored(stored.response) }
            .store(in: bag)
        storageEvents.subscribe(StorageFailed.self) { [weak self] failure in
            self?.showStatus(failure.message, isError: true)
        }
        .store(in: bag)
    }

    /// The form's part of a stored response; the list's comes through the
    /// store's `ResponseStored`.
    private func didStore(_ stored: FormResponse) {
        // The next response's `${last-saved#…}` defaults read this one.
        if viewModel.readsLastSaved { viewModel.provide(lastSaved: stored.answers.map { ($0.path, $0.value) }, fillingBlanks: false) }
        startNewResponse()
        // The blank form's own change is no draft.
        autosave.cancel()
        showStatus(tr("Response saved"), isError: false)
        do {
            try drafts.discard(formID: form.id, version: form.version)
        } catch {
            // Stored all the same; the draft's instance id keeps it from being stored twice.
            showStatus(error.localizedDescription, isError: true)
        }
        showToast(tr("Response saved"), undo: { [weak self] in self?.takeBack(stored) })
        // After the toast's Undo has had its time: a response taken back
        // must not be on the server already.
        SyncService.shared.send(after: 6)
    }

    func startNewResponse() {
        editedRevision = nil
        audit?.clear()
        audit?.record("form start", at: Date())
        renderer.tearDown()
        replacingAnswers { viewModel.reset() }
        startedAt = Date()
        renderer = makeRenderer()
        renderer.focusFirstQuestion()
    }

    /// Undo of a submit: the response leaves the database and its answers
    /// come back into the form, under the same instance id.
    private func takeBack(_ response: FormResponse) {
        guard let id = response.id, removeStored(id: id) != nil else { return }
        renderer.tearDown()
        replacingAnswers {
            viewModel.reset()
            viewModel.restore(response.answers.map { ($0.path, $0.value) })
        }
        viewModel.resume(instanceID: response.instanceID)
        startedAt = response.startedAt
        // An edit taken back is an edit again, of the revision it replaced.
        editedRevision = response.deprecatedID.map { EditedRevision(instanceID: $0, title: "") }
        renderer = makeRenderer()
        renderer.focusFirstQuestion()
        showStatus(tr("The response was taken back; it is in the form again."), isError: false)
    }

    /// Shows `message` with Undo. A newer toast replaces an older one, whose
    /// Undo then expires.
    ///
    /// The toast comes once the window has drawn the change it reports: a
    /// toast's first showing and a form's reset in one frame held it 15–21 ms
    /// (over 100,000 stored responses, where the list's rows are laid out
    /// again), each alone under 10.
    func showToast(_ message: String, undo: @escaping @MainActor () -> Void) {
        currentToast?.dismiss()
        currentToast = nil
        toastsShown += 1
        let number = toastsShown
        let undoOnce: @MainActor () -> Void = { [weak self] in
            guard let self, currentToast != nil, toastsShown == number else { return }
            currentToast = nil
            undo()
        }
        pendingToast = window.onFirstFrame { [weak self] in
            guard let self, toastsShown == number else { return }
            currentToast = toastOverlay.show(message, button: tr("_Undo"), urgent: true, onButton: undoOnce) { [weak self] in
                guard let self, currentToast != nil, toastsShown == number else { return }
                currentToast = nil
            }
        }
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

/// The audit log could not be written, so the response was not stored.
private struct AuditNotWritten: Error {
    let message: String
}
