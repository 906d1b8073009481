/// Why a GTK widget could not be wrapped.
public enum WidgetError: Error, Equatable, CustomStringConvertible {
    /// The widget is not an instance of the wrapper's GType.
    case wrongType(expected: String, actual: String)
    /// The widget already has a wrapper of another, unrelated class.
    case wrappedAs(wrapper: String, requested: String, type: String)
    /// The widget was destroyed before it could be used as a `expected`.
    case destroyed(expected: String)

    public var description: String {
        switch self {
        case .wrongType(let expected, let actual):
            "a \(actual) is not a \(expected)"
        case .wrappedAs(let wrapper, let requested, let type):
            "this \(type) is already wrapped as \(wrapper), not \(requested)"
        case .destroyed(let expected):
            "the widget was destroyed, so it is no \(expected)"
        }
    }
}
