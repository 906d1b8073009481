import Synchronization

/// Where the model's and the storage's user-visible text goes through
/// translation.
///
/// Neither imports GTK or gettext; the application installs its translator
/// (gettext, which any thread may call) at start-up, before building a view
/// model or opening a store.
public enum Localization {
    private static let translator = Mutex<@Sendable (String) -> String>({ $0 })

    /// Translates an English message. Identity until the application sets it.
    public static var translate: @Sendable (String) -> String {
        get { translator.withLock { $0 } }
        set { translator.withLock { $0 = newValue } }
    }

    /// The desktop's languages, most wanted first, as POSIX locale names
    /// (`de_DE.UTF-8`, `de`): the survey form's own translations follow them.
    /// Empty (English) until the application sets it.
    @MainActor public static var preferredLanguages: [String] = []
}

func tr(_ message: String) -> String {
    Localization.translate(message)
}
