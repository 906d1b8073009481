import CTwoWayBindingAdw
import TwoWayBinding
public import TwoWayBindingGtk

/// A libadwaita message dialog (`AdwMessageDialog`): a heading, a body and
/// a row of responses, standing over a window. It keeps itself alive while
/// it is shown.
///
/// ```swift
/// let dialog = MessageDialog(over: window, heading: "Carry Over Answers?", body: "…")
/// dialog.addResponse("keep", label: "_Keep")
/// dialog.addResponse("carry", label: "_Carry Over", appearance: .suggested)
/// dialog.defaultResponse = "carry"
/// dialog.closeResponse = "keep"
/// dialog.present { response in if response == "carry" { carryOver() } }
/// ```
@MainActor
public final class MessageDialog {
    /// How a response's button looks.
    public enum Appearance: Sendable {
        case normal
        /// The action the dialog suggests.
        case suggested
        /// An action that destroys something.
        case destructive
    }

    /// The dialog's wrapper, as a window.
    public let window: Window
    private var dialog: UnsafeMutablePointer<AdwMessageDialog>? { window.pointer?.cast(to: AdwMessageDialog.self) }
    private var response: ObservationToken?
    /// Itself, while shown: nobody else need keep a dialog for its answer to arrive.
    private var keptWhileShown: MessageDialog?

    /// A dialog over `parent` saying `heading` and, beneath it, `body`.
    public init(over parent: Window?, heading: String, body: String) {
        let parentWindow = parent?.pointer.map { $0.cast(to: GtkWindow.self) }
        let made = adw_message_dialog_new(parentWindow, heading, body)!
        // A new toplevel is owned by GTK's window list until it is destroyed.
        window = try! Window.wrapping(made)
    }

    /// Adds a button answering `id`, reading `label` (an underscore marks its mnemonic).
    public func addResponse(_ id: String, label: String, appearance: Appearance = .normal) {
        guard let dialog else { return }
        adw_message_dialog_add_response(dialog, id, label)
        switch appearance {
        case .normal: break
        case .suggested: adw_message_dialog_set_response_appearance(dialog, id, ADW_RESPONSE_SUGGESTED)
        case .destructive: adw_message_dialog_set_response_appearance(dialog, id, ADW_RESPONSE_DESTRUCTIVE)
        }
    }

    /// Shows a spinning spinner under the body: the dialog stands for work
    /// under way, which it closes itself (`respond`) when done.
    public func showSpinner() {
        guard let dialog, let spinner = gtk_spinner_new() else { return }
        gtk_spinner_start(OpaquePointer(spinner))
        gtk_widget_set_margin_top(spinner, 12)
        gtk_widget_set_size_request(spinner, 32, 32)
        adw_message_dialog_set_extra_child(dialog, spinner)
    }

    /// The response Enter gives.
    public var defaultResponse: String? {
        get { dialog.flatMap { adw_message_dialog_get_default_response($0) }.map { String(cString: $0) } }
        set { dialog.map { adw_message_dialog_set_default_response($0, newValue) } }
    }

    /// The response Escape and the window's closing give.
    public var closeResponse: String {
        get { dialog.map { String(cString: adw_message_dialog_get_close_response($0)) } ?? "" }
        set { dialog.map { adw_message_dialog_set_close_response($0, newValue) } }
    }

    /// Whether the dialog is shown, waiting for its answer.
    public var isShown: Bool { keptWhileShown != nil }

    /// Shows the dialog; `handler` gets the id of the response chosen, once.
    public func present(_ handler: @escaping @MainActor (String) -> Void = { _ in }) {
        guard !isShown, let pointer = window.pointer else { return }
        keptWhileShown = self
        response = Signal.connectKnown(UnsafeMutableRawPointer(pointer), signal: "response") { [unowned self] (id: String) in
            response?.cancel()
            response = nil
            defer { keptWhileShown = nil }
            handler(id)
        }
        window.present()
    }

    /// Answers as if the user chose `id`; the dialog closes.
    public func respond(_ id: String) {
        guard let dialog else { return }
        // libadwaita closes a dialog itself only when one of its buttons
        // answers; answered from code, it stays up unless closed here. The
        // handler is gone by then, so the close response it emits goes nowhere.
        withExtendedLifetime(self) {
            adw_message_dialog_response(dialog, id)
            window.close()
        }
    }
}
