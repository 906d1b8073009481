import Foundation
import TwoWayBinding
import GtkAppShell
import TwoWayBindingGtk

/// The window at start while the form opened last is read off the main
/// thread and takes long: the form's name, a spinner, and Cancel, which opens
/// the built-in survey instead. Closing it ends the app.
@MainActor
final class OpeningWindow: AppWindow {
    let window: Window
    var onClose: (() -> Void)?
    private let bag = ObservationToken.Bag()

    init(application: SurveyApplication, path: String, onCancel: @escaping @MainActor () -> Void) {
        let cancelButton: Button
        do {
            let builder = try Builder(resource: "\(AppInfo.resourceBase)/ui/opening-window.ui")
            window = try builder.object("openingWindow", as: Window.self)
            cancelButton = try builder.object("cancelButton", as: Button.self)
            let name = Terminal.escaped(URL(fileURLWithPath: path).lastPathComponent)
            try builder.object("statusPage", as: Widget.self)
                .set(.string("title"), to: String(format: tr("Opening %@"), name))
        } catch {
            // The interface is compiled into the binary: this is a build defect.
            fatalError("the opening window's interface cannot be built: \(error)")
        }
        window.add(to: application.application)
        WindowState(settings: .shared).restore(to: window)
        cancelButton.onClicked(onCancel).store(in: bag)
        window.onDestroy { [weak self] in self?.onClose?() }.store(in: bag)
    }

    func present() {
        window.present()
    }

    func close() {
        window.close()
    }
}
