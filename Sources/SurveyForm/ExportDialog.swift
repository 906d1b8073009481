import CTwoWayBindingGtkShims
import TwoWayBinding
import Foundation
import SurveyStorage
import TwoWayBindingGtk

/// The menu's export: GTK's save dialog (which asks before replacing a
/// file), then the export, then a line saying how it went. One at a time.
@MainActor
final class ExportDialog {
    private var chooser: OpaquePointer?
    private var handler: ObservationToken?

    /// Asks for a file, then writes it with `export`, which returns how many
    /// responses it wrote; `report` gets the outcome (message, is error).
    func present(
        over parent: UnsafeMutablePointer<GtkWindow>, suggestedName: String,
        export: @escaping @MainActor (URL) throws -> Int,
        report: @escaping @MainActor (String, Bool) -> Void
    ) {
        guard chooser == nil else { return }
        let chooser = gtk_file_chooser_native_new(
            tr("Export Responses"), parent, GTK_FILE_CHOOSER_ACTION_SAVE, tr("_Export"), tr("_Cancel")
        )!
        self.chooser = chooser
        gtk_file_chooser_set_current_name(chooser, suggestedName)
        handler = Signal.connect(UnsafeMutableRawPointer(chooser), signal: "response") { [weak self] (response: Int32) in
            self?.chosen(chooser, accepted: response == GTK_RESPONSE_ACCEPT.rawValue, export: export, report: report)
        }
        gtk_native_dialog_show(UnsafeMutablePointer(chooser))
    }

    private func chosen(
        _ chooser: OpaquePointer, accepted: Bool,
        export: @MainActor (URL) throws -> Int, report: @MainActor (String, Bool) -> Void
    ) {
        defer {
            self.chooser = nil
            handler = nil
            g_object_unref(UnsafeMutableRawPointer(chooser))
        }
        guard accepted, let file = gtk_file_chooser_get_file(chooser) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let pathPointer = g_file_get_path(file) else {
            return report(tr("Export needs a file on this computer."), true)
        }
        let path = String(cString: pathPointer)
        g_free(pathPointer)
        do {
            let count = try export(URL(fileURLWithPath: path))
            report(String(format: trn("Exported %d response to %@", "Exported %d responses to %@", count), Int32(count), path), false)
        } catch {
            report(error.localizedDescription, true)
        }
    }
}
