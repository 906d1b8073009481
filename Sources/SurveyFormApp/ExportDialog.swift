import Foundation
import SurveyStorage
import GtkAppShell
import TwoWayBindingGtk

/// The menu's export: GTK's save dialog (which asks before replacing a
/// file), then the export, then a line saying how it went. One at a time.
@MainActor
final class ExportDialog {
    private var chooser: FileChooser?

    /// Asks for a file, then writes it with `export`, which returns what it
    /// wrote; `report` gets the outcome (message, is error).
    func present(
        over parent: Window, suggestedName: String,
        export: @escaping @MainActor (URL) throws -> CSVExport.Exported,
        report: @escaping @MainActor (String, Bool) -> Void
    ) {
        guard chooser == nil else { return }
        let chooser = FileChooser(
            title: tr("Export Responses"), purpose: .save(suggestedName: suggestedName),
            acceptLabel: tr("_Export"), cancelLabel: tr("_Cancel"), over: parent
        )
        self.chooser = chooser
        chooser.show { [weak self] choice in
            self?.chooser = nil
            switch choice {
            case .cancelled:
                return
            case .notLocal:
                report(tr("Export needs a file on this computer."), true)
            case .path(let path):
                do {
                    let exported = try export(URL(fileURLWithPath: path))
                    report(exported.report(path: path), exported.media?.missing.isEmpty == false)
                } catch {
                    report(error.localizedDescription, true)
                }
            }
        }
    }
}
