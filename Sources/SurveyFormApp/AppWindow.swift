import TwoWayBindingGtk

/// What the application asks of its window, whichever form it shows: the
/// built-in survey's or one opened from a file.
@MainActor
protocol AppWindow: AnyObject {
    var window: Window { get }
    /// Called once the window is gone.
    var onClose: (() -> Void)? { get set }
    func present()
    /// Closes the window, keeping its draft.
    func close()
}

extension SurveyWindow: AppWindow {}
