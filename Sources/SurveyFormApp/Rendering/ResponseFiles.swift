import Foundation
import SurveyStorage

/// The files of the response being filled in: where a control puts a
/// chosen photo or document, and finds it again. The response is whichever
/// the form holds now (a submit or a response taken back changes it).
@MainActor
final class ResponseFiles {
    let store: AttachmentStore
    private let currentInstance: @MainActor () -> String

    /// Waits until files may be added: until the app's start has removed
    /// the files of responses that are gone, which a new file must not be
    /// taken for.
    let ready: @MainActor () async -> Void

    init(
        store: AttachmentStore, instanceID: @escaping @MainActor () -> String,
        ready: @escaping @MainActor () async -> Void = {}
    ) {
        self.store = store
        currentInstance = instanceID
        self.ready = ready
    }

    /// The response's instance id now.
    var instanceID: String { currentInstance() }

    /// The stored file an answer names, in the current response.
    func url(of name: String) -> URL? {
        name.isEmpty ? nil : store.url(of: name, instanceID: instanceID)
    }
}
