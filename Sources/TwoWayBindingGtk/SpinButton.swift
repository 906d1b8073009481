public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A `GtkSpinButton` bound to a `Double` (an `Int` model binds through
/// `ValueTransform.integer`), or through `allowingEmpty` to a `Double?`
/// that empty text leaves `nil`.
///
/// The value is the adjustment's: clamped to its range and rounded to `digits`,
/// and the binding reads it back. Typed text counts on activate and when focus
/// leaves. Text that is not a number leaves the value (and the model) as it
/// was and sets the binding's validation to `.invalid(notANumberMessage(text))`.
public final class SpinButton: Widget, Bindable {
    public override class var gtkType: GType { gtk_spin_button_get_type() }

    /// A new GtkSpinButton offering `range` in steps of `step`, wrapped.
    public convenience init(range: ClosedRange<Double>, step: Double) {
        self.init(new: gtk_spin_button_new_with_range(range.lowerBound, range.upperBound, step))
    }

    /// The message for typed text that is not a number. The default quotes
    /// at most the first 20 characters: pasted text can be any length.
    public var notANumberMessage: @MainActor (String) -> String = { text in
        let quoted = text.count > 20 ? text.prefix(20) + "…" : text
        return localized("“%s” is not a number").replacing("%s", with: quoted)
    }

    /// When set, a typed number outside the range is refused with this
    /// message, as text that is not a number is, instead of being clamped
    /// into the range: for a range a rule sets, where a number outside it must
    /// be explained rather than silently changed.
    public var outOfRangeMessage: (@MainActor (Double) -> String)?

    /// The spin button as a control of a `Double?`: empty text, typed or
    /// shown for `nil`, is `nil`; the arrows start from the adjustment's value.
    public private(set) lazy var allowingEmpty = AllowingEmpty(self)

    // Whether the text is empty on purpose (no value); the adjustment's value
    // means nothing while it is. Only `allowingEmpty` sets it.
    fileprivate var showsEmpty = false
    // Keeps the text empty when GTK writes the value out again.
    private var emptyOutput: ObservationToken?

    private var spinButton: OpaquePointer? { pointer.map(OpaquePointer.init) }

    // Why the last typed text was refused; `nil` once text is accepted.
    private var rejectedText: String?
    // Whether the user typed a number since the last commit: it is an answer
    // even when it equals the value shown (a 0 typed over the placeholder 0).
    private var typedValueIsPending = false
    // What Enter does while user changes are observed.
    private var commitTypedTextHandler: (@MainActor () -> Void)?

    /// The value shown, rounded to `digits` as the text shows it: steps of a
    /// fractional increment leave the adjustment at values such as
    /// 0.30000000000000004, which must not reach the model.
    public var value: Double {
        get { spinButton.map { rounded(gtk_spin_button_get_value($0)) } ?? 0 }
        set { updateValue(with: newValue) }
    }

    /// Sets the values the spin button accepts; the value is clamped into them.
    public func setRange(_ bounds: ClosedRange<Double>) {
        guard let spinButton else { return }
        gtk_spin_button_set_range(spinButton, bounds.lowerBound, bounds.upperBound)
    }

    /// The number of decimal places shown and kept.
    public var digits: Int {
        get { spinButton.map { Int(gtk_spin_button_get_digits($0)) } ?? 0 }
        set { spinButton.map { gtk_spin_button_set_digits($0, guint(newValue)) } }
    }

    public func observingValue() -> Double {
        value
    }

    /// Whether the spin button shows `value` with nothing typed pending: a
    /// model's value replaces typed text even where the two are equal (a 0
    /// typed over the placeholder 0 and not yet committed).
    public func isShowing(_ value: Double) -> Bool {
        !hasPendingInput && observingValue() == value
    }

    /// Typed text not yet committed, or refused.
    fileprivate var hasPendingInput: Bool {
        typedValueIsPending || rejectedText != nil
    }

    /// For tests: a typed number that focus leaving or Enter will commit.
    package var _hasTypedValuePending: Bool { typedValueIsPending }

    /// Shows `value` rounded to `digits`, as the spin button would keep typed text.
    public func updateValue(with value: Double) {
        guard let spinButton else { return }
        let rounded = rounded(value)
        // The model's value replaces whatever the user had typed.
        typedValueIsPending = false
        rejectedText = nil
        let wasEmpty = showsEmpty
        showsEmpty = false
        // An equal value makes GTK write the text again, which an empty
        // spin button needs.
        guard wasEmpty || gtk_spin_button_get_value(spinButton) != rounded else { return }
        gtk_spin_button_set_value(spinButton, rounded)
    }

    /// Empties the text; the value stays for the arrows to start from.
    fileprivate func showEmpty() {
        guard let spinButton else { return }
        typedValueIsPending = false
        rejectedText = nil
        showsEmpty = true
        // Setting the same value has GTK write it out, which the output
        // handler turns into empty text.
        gtk_spin_button_set_value(spinButton, gtk_spin_button_get_value(spinButton))
    }

    /// Lets the text be empty: GTK writes out the value after every change
    /// and update, and keeps it empty only through this handler.
    fileprivate func allowEmptyText() {
        guard emptyOutput == nil, let pointer else { return }
        var emptiedAt = gtk_spin_button_get_value(spinButton)
        emptyOutput = Signal.connectDeciding(pointer, signal: "output") { [weak self] in
            guard let self, let spinButton = self.spinButton else { return TWB_FALSE }
            let value = gtk_spin_button_get_value(spinButton)
            // A step of the arrows from empty text is a value again.
            if self.showsEmpty, value != emptiedAt { self.showsEmpty = false }
            guard self.showsEmpty else {
                emptiedAt = value
                return TWB_FALSE
            }
            emptiedAt = value
            if gtk_editable_get_text(spinButton).pointee != 0 { gtk_editable_set_text(spinButton, "") }
            return TWB_TRUE
        }
    }

    public func observeUserChanges(_ handler: @escaping (ControlEvent) -> Void) -> ObservationToken {
        guard let pointer else { return ObservationToken {} }
        var connections = UserChangeConnections()
        connections.handlers.append(Signal.connectSpinInput(pointer) { [weak self] newValue in
            guard let self else { return TWB_FALSE }
            let result = self.convertTypedText(into: newValue)
            if let message = self.rejectedText { handler(.rejected(message)) }
            return result
        })
        connect("value-changed", into: &connections) { handler(.edited) }
        // Enter and focus-out reach the spin button's text.
        let commit: @MainActor () -> Void = { [weak self] in
            guard let self, let spinButton = self.spinButton else { return }
            // Text that is not how GTK shows the value was typed by the user:
            // update now, whether or not GTK's own update (which may run before
            // or after this handler) has. Not otherwise: after GTK's update
            // refused text and reset it to the value, a second update would
            // accept that text and clear the refusal.
            let text = String(cString: gtk_editable_get_text(spinButton))
            let typed = text != self.shownText
            if typed { gtk_spin_button_update(spinButton) }
            // Refused text was reported by the update; there is nothing to commit.
            guard self.rejectedText == nil else { return }
            handler(typed || self.typedValueIsPending ? .entered : .committed)
            self.typedValueIsPending = false
        }
        let text = editableFocusWidget()
        connect("activate", of: text.map(UnsafeMutableRawPointer.init), into: &connections, commit)
        connectFocusLeave(of: text, into: &connections, commit)
        commitTypedTextHandler = commit
        let connected = token(for: connections)
        return ObservationToken { [weak self] in
            connected.cancel()
            self?.commitTypedTextHandler = nil
        }
    }

    /// Commits what the user typed as Enter would, for an action that takes
    /// the form's values while the spin button still has focus (a shortcut).
    public func commitTypedText() {
        if let commitTypedTextHandler {
            commitTypedTextHandler()
        } else if let spinButton {
            gtk_spin_button_update(spinButton)
        }
    }

    // MARK: - Typed text

    /// The `input` signal: turns the typed text into a value, or refuses it.
    private func convertTypedText(into newValue: UnsafeMutablePointer<Double>) -> gint {
        guard let spinButton else { return TWB_FALSE }
        let text = String(cString: gtk_editable_get_text(spinButton))
        if emptyOutput != nil, text.trimmingWhitespace().isEmpty {
            if !showsEmpty { typedValueIsPending = true }
            rejectedText = nil
            showsEmpty = true
            newValue.pointee = gtk_spin_button_get_value(spinButton)
            return TWB_TRUE
        }
        if let number = Self.number(from: text), let outOfRangeMessage, !range.contains(rounded(number)) {
            rejectedText = outOfRangeMessage(rounded(number))
            newValue.pointee = gtk_spin_button_get_value(spinButton)
            return TWB_INPUT_ERROR
        }
        if let number = Self.number(from: text) {
            showsEmpty = false
            // GTK parses its own rendering of the value again on every update;
            // only text the user typed answers, or overrides a refusal.
            if text != shownText {
                rejectedText = nil
                typedValueIsPending = true
            } else if rejectedText != nil {
                // The text GTK put back after a refusal: the value stays as it
                // is, even finer than the digits shown, or its change would
                // read as the refused text corrected.
                newValue.pointee = gtk_spin_button_get_value(spinButton)
                return TWB_TRUE
            }
            newValue.pointee = rounded(number)
            return TWB_TRUE
        }
        rejectedText = notANumberMessage(text.trimmingWhitespace().description)
        // The current value, so that GTK, which applies it anyway, changes nothing.
        newValue.pointee = gtk_spin_button_get_value(spinButton)
        return TWB_INPUT_ERROR
    }

    /// The values the adjustment allows.
    private var range: ClosedRange<Double> {
        var lower = 0.0, upper = 0.0
        gtk_spin_button_get_range(spinButton, &lower, &upper)
        return lower...max(lower, upper)
    }

    /// The text as the spin button would write it now.
    private var shownText: String {
        showsEmpty ? "" : displayText(of: gtk_spin_button_get_value(spinButton))
    }

    /// `value` as GTK's spin button writes it: `%0.*f` in the user's locale.
    private func displayText(of value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let digits = Int32(gtk_spin_button_get_digits(spinButton))
        return buffer.withUnsafeMutableBufferPointer { buffer in
            _ = withVaList([digits, value]) { vsnprintf(buffer.baseAddress, buffer.count, "%0.*f", $0) }
            return String(cString: buffer.baseAddress!)
        }
    }

    /// A finite number written with a point or, as in many locales, a comma.
    static func number(from text: String) -> Double? {
        let trimmed = String(text.trimmingWhitespace())
        let number = Double(trimmed) ?? Double(trimmed.replacing(",", with: "."))
        return number.flatMap { $0.isFinite ? $0 : nil }
    }

    /// `value` as the text shows it, to `digits` places.
    private func rounded(_ value: Double) -> Double {
        guard let spinButton else { return value }
        var scale = 1.0
        for _ in 0..<gtk_spin_button_get_digits(spinButton) { scale *= 10 }
        let scaled = value * scale
        // Away from a half, scaling rounds as the text does. At one (17.25 to
        // one place) the text's printf decides by the exact binary value,
        // half to even: 17.2, where scaling gives 17.3.
        if abs(scaled) < 1e12, abs(scaled - scaled.rounded(.down) - 0.5) > 1e-6 {
            return scaled.rounded() / scale
        }
        return Self.number(from: displayText(of: value)) ?? value
    }
}

extension SpinButton {
    /// A spin button seen as a control of `Double?`, from
    /// `SpinButton.allowingEmpty`: `nil` shows as empty text, and clearing the
    /// text gives `nil`. It shares the spin button's one binding slot.
    @MainActor
    public final class AllowingEmpty: Bindable {
        private weak var spinButton: SpinButton?

        fileprivate init(_ spinButton: SpinButton) {
            self.spinButton = spinButton
            spinButton.allowEmptyText()
        }

        public var binder: AnyBinding? {
            get { spinButton?.binder }
            set { spinButton?.binder = newValue }
        }

        public func observingValue() -> Double? {
            guard let spinButton, !spinButton.showsEmpty else { return nil }
            return spinButton.value
        }

        public func isShowing(_ value: Double?) -> Bool {
            spinButton?.hasPendingInput != true && observingValue() == value
        }

        public func updateValue(with value: Double?) {
            if let value {
                spinButton?.updateValue(with: value)
            } else {
                spinButton?.showEmpty()
            }
        }

        public func observeUserChanges(_ handler: @escaping (ControlEvent) -> Void) -> ObservationToken {
            spinButton?.observeUserChanges(handler) ?? ObservationToken {}
        }
    }
}

extension SpinButton {
    /// Whether typing is limited to digits and a sign (`true`), or any text
    /// reaches the spin button, to be refused with `notANumberMessage`.
    public var acceptsOnlyDigits: Bool {
        get { spinButton.map { gtk_spin_button_get_numeric($0) != 0 } ?? false }
        set { spinButton.map { gtk_spin_button_set_numeric($0, newValue ? TWB_TRUE : TWB_FALSE) } }
    }

    /// Whether stepping past one end goes round to the other (minutes, hours).
    public var wraps: Bool {
        get { spinButton.map { gtk_spin_button_get_wrap($0) != 0 } ?? false }
        set { spinButton.map { gtk_spin_button_set_wrap($0, newValue ? TWB_TRUE : TWB_FALSE) } }
    }

    /// Whether the buttons sit above and below the value (`true`) or beside it.
    public var isVertical: Bool {
        get { pointer.map { gtk_orientable_get_orientation(OpaquePointer($0)) == GTK_ORIENTATION_VERTICAL } ?? false }
        set {
            pointer.map { gtk_orientable_set_orientation(OpaquePointer($0), newValue ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL) }
        }
    }

    /// Calls `handler` when Enter is pressed in the spin button's text, after
    /// the binding has taken the typed number; until the token ends.
    public func onActivate(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        guard let text = pointer.flatMap({ gtk_editable_get_delegate(OpaquePointer($0)) }) else { return ObservationToken {} }
        return Signal.connectKnown(UnsafeMutableRawPointer(text), signal: "activate", handler)
    }
}
