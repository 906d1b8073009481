/// Why a Swift closure could not be connected to a signal.
public enum SignalError: Error, Equatable, CustomStringConvertible {
    /// The object's type has no signal of that name.
    case noSuchSignal(signal: String, type: String)
    /// The signal passes other arguments, or expects another answer, than the
    /// handler's shape (`expected`) allows.
    case wrongShape(signal: String, type: String, expected: String, actual: String)

    public var description: String {
        switch self {
        case .noSuchSignal(let signal, let type):
            "a \(type) has no signal \"\(signal)\""
        case .wrongShape(let signal, let type, let expected, let actual):
            "\"\(signal)\" of a \(type) has \(actual); this handler fits signals with \(expected)"
        }
    }
}
