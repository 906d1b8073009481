import CTwoWayBindingAdw
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
        license: License, website: String, issueURL: String, translatorCredits: String
    ) {
        window = try! Window.wrapping(adw_about_window_new()!)
        guard let about else { return }
        adw_about_window_set_application_name(about, applicationName)
        adw_about_window_set_application_icon(about, icon)
        adw_about_window_set_version(about, version)
        adw_about_window_set_developer_name(about, developerName)
        adw_about_window_set_comments(about, comments)
        adw_about_window_set_license_type(about, license.gtkLicense)
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

extension AboutWindow {
    /// The licence an About window names and links to.
    public enum License: Sendable {
        case mit
        case apache2
        case gpl2OrLater
        case gpl3OrLater
        case lgpl21OrLater
        case lgpl3OrLater
        case agpl3OrLater
        case mpl2
        case bsd3

        var gtkLicense: GtkLicense {
            switch self {
            case .mit: GTK_LICENSE_MIT_X11
            case .apache2: GTK_LICENSE_APACHE_2_0
            case .gpl2OrLater: GTK_LICENSE_GPL_2_0
            case .gpl3OrLater: GTK_LICENSE_GPL_3_0
            case .lgpl21OrLater: GTK_LICENSE_LGPL_2_1
            case .lgpl3OrLater: GTK_LICENSE_LGPL_3_0
            case .agpl3OrLater: GTK_LICENSE_AGPL_3_0
            case .mpl2: GTK_LICENSE_MPL_2_0
            case .bsd3: GTK_LICENSE_BSD_3
            }
        }
    }
}
