/// Converts a model value to what a control shows and back; the way back may
/// fail, as when text is not a number.
public struct ValueTransform<Model, Control>: Sendable {
    /// The control's value for a model value.
    public let toControl: @MainActor @Sendable (Model) -> Control
    /// The model's value for a control value, or why there is none.
    public let toModel: @MainActor @Sendable (Control) -> Result<Model, ConversionError>

    /// A transform from its two directions.
    public init(
        toControl: @escaping @MainActor @Sendable (Model) -> Control,
        toModel: @escaping @MainActor @Sendable (Control) -> Result<Model, ConversionError>
    ) {
        self.toControl = toControl
        self.toModel = toModel
    }

    /// Why a control's value could not become a model value.
    public struct ConversionError: Error, Sendable, Equatable {
        /// A message fit to show next to the field.
        public let message: String

        /// An error carrying `message`, shown to the user as it is.
        public init(_ message: String) {
            self.message = message
        }
    }
}

extension ValueTransform where Model == Control {
    /// Leaves values as they are.
    // Inlinable, as is `bind(with:)`: a binding's caller gets these closures
    // specialized for its value type, not generic ones that look up
    // `Result`'s metadata on every change.
    @inlinable
    public static var identity: ValueTransform {
        ValueTransform(toControl: { $0 }, toModel: { .success($0) })
    }
}

extension ValueTransform where Control == String, Model: LosslessStringConvertible & Sendable {
    /// Text ↔ a number or other value parsed from text. Surrounding spaces are
    /// ignored; text that does not parse keeps the model as it was.
    public static func text(invalidMessage: String) -> ValueTransform {
        ValueTransform(
            toControl: { String(describing: $0) },
            toModel: { text in
                let trimmed = text.trimmingWhitespace()
                if let value = Model(String(trimmed)) { return .success(value) }
                return .failure(ConversionError(invalidMessage))
            }
        )
    }
}

extension ValueTransform where Model == Int, Control == Double {
    /// A whole number ↔ a control's floating-point value. A fractional or
    /// out-of-range control value is refused.
    public static func integer(invalidMessage: String) -> ValueTransform {
        ValueTransform(
            toControl: { Double($0) },
            toModel: { value in
                guard let exact = Int(exactly: value) else { return .failure(ConversionError(invalidMessage)) }
                return .success(exact)
            }
        )
    }
}

extension ValueTransform where Model == Float, Control == Double {
    /// A `Float` model ↔ a control's `Double` value.
    public static var float: ValueTransform {
        ValueTransform(toControl: { Double($0) }, toModel: { .success(Float($0)) })
    }
}

extension ValueTransform {
    /// An optional model ↔ a control that always shows something: `nil` shows
    /// as `placeholder`, and any value the user gives becomes non-nil.
    public static func optional<Wrapped>(
        _ wrapped: ValueTransform<Wrapped, Control>, placeholder: Control
    ) -> ValueTransform where Model == Wrapped?, Control: Sendable {
        ValueTransform(
            toControl: { $0.map(wrapped.toControl) ?? placeholder },
            toModel: { control in
                wrapped.toModel(control).map { Optional($0) }.mapError { ConversionError($0.message) }
            }
        )
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space and newlines.
    package func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0.isWhitespace || $0.isNewline }
        guard let first = firstIndex(where: { !isSpace($0) }),
              let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return Substring(self[first...last])
    }
}
