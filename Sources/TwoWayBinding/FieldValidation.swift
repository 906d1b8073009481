/// Whether a field's input is acceptable, and if not, what to tell the user.
public enum FieldValidation: Sendable, Hashable {
    case valid
    case invalid(String)

    /// Whether the input is acceptable.
    public var isValid: Bool {
        if case .valid = self { return true }
        return false
    }

    /// The message to show, or `nil` when the input is valid.
    public var message: String? {
        if case .invalid(let message) = self { return message }
        return nil
    }

    /// The first invalid state among `states`, or `.valid`.
    public static func first(of states: [FieldValidation]) -> FieldValidation {
        states.first { !$0.isValid } ?? .valid
    }
}
