import CTwoWayBindingGtkShims
public import TwoWayBindingGtk
public import Foundation

/// Where GLib says the user's files go and which languages the user reads,
/// as every GTK app sees them: `XDG_*` variables, the Flatpak sandbox's
/// folders, `LANGUAGE` and the locale.
public enum UserEnvironment {
    /// The folder for the user's application data (`$XDG_DATA_HOME`, else
    /// `~/.local/share`; inside a Flatpak, the app's own).
    public static var dataDirectory: URL {
        URL(fileURLWithPath: String(cString: g_get_user_data_dir()), isDirectory: true)
    }

    /// The user's languages for messages, most wanted first, each with its
    /// less specific forms after it (`de_DE.UTF-8`, `de_DE`, `de`) and
    /// `C` last.
    public static var languageNames: [String] {
        guard let names = g_get_language_names() else { return ["C"] }
        return stringArray(fromNullTerminated: UnsafeRawPointer(names))
    }

    /// A part of the desktop's locale: how it writes dates or numbers.
    public enum LocaleCategory: String, Sendable {
        case time = "LC_TIME"
        case numeric = "LC_NUMERIC"
    }

    /// The locale the desktop asks for `category` (`LC_ALL`, else the
    /// category's own variable, else `LANG`, as the C library reads them),
    /// as Foundation knows it: `de_DE.UTF-8` is `de_DE`. Foundation's
    /// `Locale.current` does not follow these on Linux, and the C library
    /// only follows them where the locale is generated; ICU knows every
    /// locale. The C and POSIX locales give `Locale.current`.
    public static func locale(for category: LocaleCategory) -> Locale {
        locale(for: category, environment: ProcessInfo.processInfo.environment)
    }

    /// `locale(for:)` with the variables given.
    public static func locale(for category: LocaleCategory, environment: [String: String]) -> Locale {
        chosenLocale(for: category, environment: environment) ?? .current
    }

    /// The locale the person chose for `category`, or `nil` under the C and
    /// POSIX locales (or none), where text keeps its plain notation.
    public static func chosenLocale(for category: LocaleCategory) -> Locale? {
        chosenLocale(for: category, environment: ProcessInfo.processInfo.environment)
    }

    /// `chosenLocale(for:)` with the variables given.
    public static func chosenLocale(for category: LocaleCategory, environment: [String: String]) -> Locale? {
        let value = [environment["LC_ALL"], environment[category.rawValue], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        // `de_DE.UTF-8@euro`: the language and region, without the codeset and modifier.
        let name = String(value.prefix { $0 != "." && $0 != "@" })
        guard !name.isEmpty, name != "C", name != "POSIX" else { return nil }
        return Locale(identifier: name)
    }
}
