public import CAdw
public import TwoWayBindingGtk

/// libadwaita's About window (`AdwAboutWindow`), as GNOME apps show it.
@MainActor
public final class AboutWindow {
    /// The window's wrapper.
    public let window: Window
    private var about: OpaquePointer? { window.pointer.map(OpaquePointer.init) }

    /// An About window for `applicationName`, showing the icon named
    /// `icon`, its `version`, who makes it, a line saying what it does,
    /// its licence, its website and where to report issues, and who
    /// translated it (the translation of `"translator-credits"`).
    public init(
        applicationName: String, icon: String, version: String, developerName: String, comments: String,
        license: GtkLicense, website: String, issueURL: String, translatorCredits: String
    ) {
        window = try! Window.wrapping(adw_about_window_new()!)
        guard let about else { return }
        adw_about_window_set_application_name(about, applicationName)
        adw_about_window_set_application_icon(about, icon)
        adw_about_window_set_version(about, version)
        adw_about_window_set_developer_name(about, developerName)
        adw_about_window_set_comments(about, comments)
        adw_about_window_set_license_type(about, license)
        adw_about_window_set_website(about, website)
        adw_about_window_set_issue_url(about, issueURL)
        adw_about_window_set_translator_credits(about, translatorCredits)
    }

    /// Shows the window over `parent`, taking its input until it closes.
    public func present(over parent: Window?) {
        window.standOver(parent)
        window.present()
    }
}
