import Foundation
import GtkAppShell
import TwoWayBindingGtk

/// The GResource bundle compiled into the binary (the .ui files and CSS).
@MainActor
enum ResourceBundle {
    private static var isRegistered = false

    /// Makes the bundle's files reachable under `AppInfo.resourceBase`.
    static func register() {
        guard !isRegistered else { return }
        guard let data = Data(base64Encoded: embeddedResourceBundleBase64) else {
            fatalError("the embedded resource bundle is not valid base64: rebuild the app")
        }
        do {
            try Resources.register(data)
            isRegistered = true
        } catch {
            fatalError("the embedded resource bundle cannot be loaded: \(error)")
        }
    }

    /// Adds the app's style sheet to the display.
    static func loadStyleSheet() {
        Resources.addStyleSheet(resource: "\(AppInfo.resourceBase)/style.css")
    }
}
