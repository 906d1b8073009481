import Foundation
import Synchronization

/// Where the text the engine, the view models, the storage and the sync
/// layers show a user goes through translation: the one hook below the app.
///
/// None of them imports GTK or gettext; the application installs its
/// translator (gettext, which any thread may call) at start-up, before
/// reading a form or opening a store.
public enum Localization {
    // NB: the function travels inside a struct. A bare function type as the
    // Mutex's generic value is re-abstracted on every get and set, so each
    // save-and-restore wrapped it in two more thunks, without end.
    private struct Translator: Sendable {
        let function: @Sendable (String) -> String
    }

    private static let translator = Mutex(Translator(function: { $0 }))

    /// Translates an English message. Identity until the application sets it.
    public static var translate: @Sendable (String) -> String {
        get { translator.withLock { $0 }.function }
        set { translator.withLock { $0 = Translator(function: newValue) } }
    }

    /// The desktop's languages, most wanted first, as POSIX locale names
    /// (`de_DE.UTF-8`, `de`): the survey form's own translations follow them.
    /// Empty (English) until the application sets it.
    @MainActor public static var preferredLanguages: [String] = []
}

/// `message` in the user's language: the one way the engine, the view
/// models, the storage and the sync layers translate.
package func tr(_ message: String) -> String {
    Localization.translate(message)
}

/// The translated `format` with `arguments` in its `%@` places.
package func tr(_ format: String, _ arguments: String...) -> String {
    String(format: Localization.translate(format), arguments: arguments.map { $0 as NSString })
}
