import SurveyStorage

/// The window's response database, opened on a thread of its own while the
/// window is built and drawn: what the window does with it waits for it only
/// when it cannot do otherwise (a submit in the first tenth of a second).
extension FormWindow {
    enum StoreState {
        /// Still opening, or opened and not yet taken.
        case opening(ResponseStore.Opening)
        /// Taken: the store, or `nil` when the database could not be opened
        /// (the window has said why).
        case taken(ResponseStore?)
    }

    /// The store, taking it from its opening first (which waits for the
    /// opening to end, if it has not); `nil` when there is none.
    var store: ResponseStore? {
        takeStore()
        guard case .taken(let store) = storeState else { return nil }
        return store
    }

    /// Takes the store from its opening, if it is still to be taken, and says
    /// what the user should know of the database beside the draft's news
    /// (the one must not hide the other).
    func takeStore() {
        guard case .opening(let opening) = storeState else { return }
        let problem: String?
        do {
            let store = try opening.store(events: storageEvents)
            storeState = .taken(store)
            problem = storageNotice(store)
            // The device id every response from here carries, and delivery too.
            if let deviceID = try? store.deviceID() { viewModel.provide(deviceID: deviceID) }
            // `${last-saved#…}`: the newest response to the form, read only for a form that asks.
            if viewModel.readsLastSaved, let last = try? store.newestResponses(toForm: form.id, limit: 1).newest.first {
                viewModel.provide(lastSaved: last.answers.map { ($0.path, $0.value) }, fillingBlanks: isNewResponse)
            }
        } catch {
            storeState = .taken(nil)
            problem = error.localizedDescription
        }
        guard let problem else { return }
        let news = [problem] + [draftNews?.message].compactMap { $0 }
        showStatus(news.joined(separator: "\n"), isError: true)
    }

    /// Takes the store once its opening has ended, waiting off the main
    /// thread: the window keeps drawing meanwhile.
    func storeOpened() async {
        guard case .opening(let opening) = storeState else { return }
        _ = try? await offMainThread { opening.waitUntilFinished() }
        takeStore()
    }

    func settled() async {
        await storeOpened()
    }
}
