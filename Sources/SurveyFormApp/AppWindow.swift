import TwoWayBindingGtk

/// What the application asks of its window: a form's, or the one saying a
/// form is being opened.
@MainActor
protocol AppWindow: AnyObject {
    var window: Window { get }
    /// Called once the window is gone.
    var onClose: (() -> Void)? { get set }
    func present()
    /// Closes the window, keeping its draft.
    func close()
    /// Returns once what the window reads at start (the response database)
    /// has arrived, for a screenshot of the window as the user sees it.
    func settled() async
}

extension AppWindow {
    func settled() async {}
}
