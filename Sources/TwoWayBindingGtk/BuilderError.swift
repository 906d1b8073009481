/// Why a `Builder` could not load its description or find an object.
public enum BuilderError: Error, Equatable, CustomStringConvertible {
    /// The description did not load; `message` is GTK's.
    case cannotLoad(source: String, message: String)
    /// No object has the id.
    case missingObject(id: String, expected: String)
    /// The object with the id is not of the expected GType.
    case wrongType(id: String, expected: String, actual: String)
    /// The object with the id already has a wrapper of an unrelated class.
    case cannotWrap(id: String, reason: WidgetError)

    public var description: String {
        switch self {
        case .cannotLoad(let source, let message):
            "cannot load the UI description \(source): \(message)"
        case .missingObject(let id, let expected):
            "the UI description has no object \"\(id)\" (expected a \(expected))"
        case .wrongType(let id, let expected, let actual):
            "object \"\(id)\" is a \(actual), expected a \(expected)"
        case .cannotWrap(let id, let reason):
            "object \"\(id)\": \(reason)"
        }
    }
}
