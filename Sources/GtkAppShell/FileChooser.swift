import CTwoWayBindingGtkShims
public import TwoWayBindingGtk
import TwoWayBinding

/// GTK's file chooser (`GtkFileChooserNative`: the desktop portal's inside a
/// sandbox, GTK's own dialog elsewhere), asking for one file to open or a
/// place to save one. It keeps itself alive while it is shown.
///
/// ```swift
/// let chooser = FileChooser(title: "Open Form", purpose: .open, acceptLabel: "_Open", over: window)
/// chooser.addFilter("XLSForm files", patterns: ["*.xlsx", "*.csv"])
/// chooser.show { choice in if case .path(let path) = choice { open(path) } }
/// ```
@MainActor
public final class FileChooser {
    /// What the file is asked for.
    public enum Purpose: Equatable, Sendable {
        /// An existing file, to read.
        case open
        /// A place to write, offering `suggestedName`; the chooser asks
        /// before replacing a file.
        case save(suggestedName: String)
    }

    /// How the chooser was answered.
    public enum Choice: Equatable, Sendable {
        /// The local path of the file chosen.
        case path(String)
        /// A file with no local path (a remote location), which the app cannot use as a path.
        case notLocal
        /// Closed without a choice.
        case cancelled
    }

    /// The GtkFileChooserNative (`GtkFileChooserNative *`), owned by this object.
    public let pointer: OpaquePointer
    private var response: ObservationToken?
    /// Itself, while shown: nobody else need keep a chooser for its answer to arrive.
    private var keptWhileShown: FileChooser?

    /// A chooser titled `title` whose accept button reads `acceptLabel` (an
    /// underscore marks its mnemonic), standing over `parent`.
    public init(title: String, purpose: Purpose, acceptLabel: String, cancelLabel: String, over parent: Window?) {
        let action = purpose == .open ? GTK_FILE_CHOOSER_ACTION_OPEN : GTK_FILE_CHOOSER_ACTION_SAVE
        let parentWindow = parent?.pointer.map { $0.cast(to: GtkWindow.self) }
        pointer = gtk_file_chooser_native_new(title, parentWindow, action, acceptLabel, cancelLabel)
        if case .save(let name) = purpose { gtk_file_chooser_set_current_name(pointer, name) }
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }

    /// Offers only files matching one of `patterns` (`"*.csv"`) or of
    /// `mimeTypes` (`"image/*"`), under `name`.
    public func addFilter(_ name: String, patterns: [String], mimeTypes: [String] = []) {
        let filter = gtk_file_filter_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(filter)) }
        gtk_file_filter_set_name(filter, name)
        for pattern in patterns { gtk_file_filter_add_pattern(filter, pattern) }
        for type in mimeTypes { gtk_file_filter_add_mime_type(filter, type) }
        gtk_file_chooser_add_filter(pointer, filter)
    }

    /// Whether the chooser is shown, waiting for its answer.
    public var isShown: Bool { keptWhileShown != nil }

    /// Shows the chooser; `handler` gets its answer, once. Does nothing
    /// while it is shown already.
    public func show(_ handler: @escaping @MainActor (Choice) -> Void) {
        guard !isShown else { return }
        keptWhileShown = self
        response = Signal.connectKnown(UnsafeMutableRawPointer(pointer), signal: "response") { [unowned self] (id: Int32) in
            finish(accepted: id == GTK_RESPONSE_ACCEPT.rawValue, handler)
        }
        gtk_native_dialog_show(UnsafeMutablePointer(pointer))
    }

    /// Answers as the user would, for tests: accepted with the chooser's
    /// file, or cancelled.
    package func _respond(accepted: Bool) {
        guard isShown else { return }
        gtk_native_dialog_hide(UnsafeMutablePointer(pointer))
        twb_emit_response(UnsafeMutableRawPointer(pointer), accepted ? GTK_RESPONSE_ACCEPT.rawValue : GTK_RESPONSE_CANCEL.rawValue)
    }

    private func finish(accepted: Bool, _ handler: @MainActor (Choice) -> Void) {
        response?.cancel()
        response = nil
        // Released only after the handler, which may still read the chooser.
        defer { keptWhileShown = nil }
        guard accepted, let file = gtk_file_chooser_get_file(pointer) else { return handler(.cancelled) }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let path = g_file_get_path(file) else { return handler(.notLocal) }
        defer { g_free(path) }
        handler(.path(String(cString: path)))
    }
}
