import Foundation
import GtkAppShell
import TwoWayBindingGtk

/// `--screenshot PATH`: the window as a PNG, rendered by GTK itself.
extension AppWindow {
    /// Waits for the window's first frame, renders it to `path`; whether it worked.
    func saveScreenshot(to path: String) async -> Bool {
        do {
            try await window.saveScreenshot(to: path)
            return true
        } catch {
            Terminal.error("\(error)")
            return false
        }
    }
}
