import Foundation
import FormEngine
import GtkAppShell
import TwoWayBindingGtk

/// `message` in the user's language; gettext may be asked from any thread.
func tr(_ message: String) -> String {
    Gettext.translate(message)
}

/// The singular or plural form of `message` for `count`, in the user's language.
@MainActor
func trn(_ singular: String, _ plural: String, _ count: Int) -> String {
    Gettext.translate(singular, plural: plural, count: count)
}

@MainActor
enum Translations {
    /// Sets up gettext for the program and for the view model.
    static func setUp() {
        Gettext.setUp(domain: AppInfo.gettextDomain, directory: localeDirectory())
        Localization.translate = { tr($0) }
        Localization.preferredLanguages = desktopLanguages()
    }

    /// The languages gettext looks for, most wanted first, so that the survey
    /// form's own translations agree with the app's texts.
    private static func desktopLanguages() -> [String] {
        // NB: gettext ignores LANGUAGE under the plain C locale; GLib's list
        // does not, so it would ask for a form language the app is not in.
        let messagesLocale = setlocale(LC_MESSAGES, nil).map { String(cString: $0) } ?? "C"
        guard messagesLocale != "C", messagesLocale != "POSIX" else { return [] }
        return UserEnvironment.languageNames
    }

    /// Where the catalogs are: beside an installed binary (`bin/../share/locale`),
    /// else where the build compiled them.
    private static func localeDirectory() -> String {
        // NB: argv[0] is a bare name when the binary is found through PATH (as
        // the desktop file starts it); the kernel knows the real path.
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/locale")
        let languages = (try? FileManager.default.contentsOfDirectory(atPath: installed.path)) ?? []
        let hasCatalog = languages.contains { language in
            FileManager.default.fileExists(
                atPath: installed.appendingPathComponent("\(language)/LC_MESSAGES/\(AppInfo.gettextDomain).mo").path
            )
        }
        return hasCatalog ? installed.path : buildLocaleDirectory
    }
}
