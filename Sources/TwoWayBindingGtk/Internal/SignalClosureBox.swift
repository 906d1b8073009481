import CTwoWayBindingGtkShims

/// The Swift side of one signal connection, retained by GLib through the
/// connection's user_data and released by its GClosureNotify.
@MainActor
final class SignalClosureBox {
    enum Action {
        case plain(@MainActor () -> Void)
        case spinInput(@MainActor (UnsafeMutablePointer<Double>) -> gint)
        case integer(@MainActor (gint) -> Void)
        case text(@MainActor (String) -> Void)
        case decide(@MainActor () -> gint)
        case object(@MainActor (UnsafeMutableRawPointer?) -> Void)
        case key(@MainActor (_ keyval: guint, _ state: GdkModifierType) -> Bool)
        case paths(@MainActor ([String]) -> Void)
        case point(@MainActor (Double, Double) -> Void)
        case options(@MainActor (UnsafeMutablePointer<GVariantDict>) -> gint)
    }

    private(set) static var liveCount = 0

    private let action: Action

    init(_ action: Action) {
        self.action = action
        Self.liveCount += 1
    }

    isolated deinit {
        Self.liveCount -= 1
    }

    static func unretained(_ data: UnsafeMutableRawPointer?) -> SignalClosureBox {
        Unmanaged<SignalClosureBox>.fromOpaque(data!).takeUnretainedValue()
    }

    func run() {
        if case .plain(let handler) = action { handler() }
    }

    func run(_ argument: gint) {
        if case .integer(let handler) = action { handler(argument) }
    }

    func run(_ argument: String) {
        if case .text(let handler) = action { handler(argument) }
    }

    func run(object: UnsafeMutableRawPointer?) {
        if case .object(let handler) = action { handler(object) }
    }

    func decide() -> gint {
        if case .decide(let handler) = action { return handler() }
        return TWB_FALSE
    }

    func handleKey(_ keyval: guint, _ state: GdkModifierType) -> gboolean {
        if case .key(let handler) = action { return handler(keyval, state) ? TWB_TRUE : TWB_FALSE }
        return TWB_FALSE
    }

    func run(paths: [String]) {
        if case .paths(let handler) = action { handler(paths) }
    }

    func run(x: Double, y: Double) {
        if case .point(let handler) = action { handler(x, y) }
    }

    func handle(options: UnsafeMutablePointer<GVariantDict>) -> gint {
        if case .options(let handler) = action { return handler(options) }
        return -1
    }

    func convert(_ newValue: UnsafeMutablePointer<Double>) -> gint {
        if case .spinInput(let handler) = action { return handler(newValue) }
        return TWB_FALSE
    }
}
