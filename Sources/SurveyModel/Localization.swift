/// Where the model's user-visible text goes through translation.
///
/// The model imports no GTK and no gettext; the application installs its
/// translator (gettext) at start-up, before building a view model.
@MainActor
public enum Localization {
    /// Translates an English message. Identity until the application sets it.
    public static var translate: (String) -> String = { $0 }

    /// The desktop's languages, most wanted first, as POSIX locale names
    /// (`de_DE.UTF-8`, `de`): the survey form's own translations follow them.
    /// Empty (English) until the application sets it.
    public static var preferredLanguages: [String] = []
}

@MainActor
func tr(_ message: String) -> String {
    Localization.translate(message)
}
