import Foundation
import GtkAppShell
import TwoWayBindingGtk

/// `--screenshot PATH`: the window as a PNG, rendered by GTK itself.
extension AppWindow {
    /// Waits for the window's first frame and what it reads at start,
    /// renders it to `path`; whether it worked.
    func saveScreenshot(to path: String) async -> Bool {
        do {
            await settled()
            try await window.saveScreenshot(to: path)
            return true
        } catch {
            Terminal.error("\(error)")
            return false
        }
    }
}
