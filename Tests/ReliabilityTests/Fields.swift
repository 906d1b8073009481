import CTwoWayBindingGtkShims
import Foundation
import TwoWayBinding
import TwoWayBindingGtk

/// The real widgets of the property test, set up in code as a survey window
/// sets them up (text widgets with their own undo off, the years spin button
/// 0–60 in steps of 0.5 with one digit and numeric off, the salary scale
/// 0–500,000 in steps of 1,000), and what each does with a value (clamping,
/// rounding) and with user input, as GTK 4.8 implements it.
@MainActor
enum Fields {
    static let entryAlphabet = ["a", "b", "Z", " ", "é", "ß", "✓", "1", "-", "😀"]
    static let textAlphabet = entryAlphabet + ["\n"]

    static func randomText(_ rng: inout SplitMix64, alphabet: [String], maxLength: Int = 8) -> String {
        (0..<Int.random(in: 0...maxLength, using: &rng)).map { _ in rng.pick(alphabet) }.joined()
    }

    /// `text` with `piece` inserted at character (Unicode scalar) offset `offset`.
    static func inserting(_ piece: String, at offset: Int, into text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        scalars.insert(contentsOf: piece.unicodeScalars, at: offset)
        return String(String.UnicodeScalarView(scalars))
    }

    /// `text` without the characters `start..<end`.
    static func deleting(_ start: Int, _ end: Int, from text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        scalars.removeSubrange(start..<end)
        return String(String.UnicodeScalarView(scalars))
    }

    /// A random range `start...end` within `count` characters; empty sometimes.
    static func randomRange(_ rng: inout SplitMix64, count: Int) -> (Int, Int) {
        let start = Int.random(in: 0...count, using: &rng)
        let end = Int.random(in: start...min(count, start + 4), using: &rng)
        return (start, end)
    }

    // MARK: - GtkEntry

    static func entry(name: String, model: Observable<String>) throws -> Field<String, Entry> {
        let gtkEntry = gtk_entry_new()!
        gtk_editable_set_enable_undo(gtkEntry.opaque, TWB_FALSE)
        return try Field(
            name: name, model: model, widget: gtkEntry, as: Entry.self, transform: .identity,
            describe: { "\"\($0)\"" },
            modelValues: { rng, current in
                switch rng.weighted([1, 1, 6, 1]) {
                case 0: ""
                case 1: current
                case 2: randomText(&rng, alphabet: entryAlphabet)
                default: randomText(&rng, alphabet: entryAlphabet, maxLength: 40)
                }
            },
            displayProblem: { entry, model in
                let shown = String(cString: gtk_editable_get_text(entry.pointer!.opaque))
                return shown == model ? nil : "GtkEntry text \"\(shown)\""
            },
            userEdits: { rng, entry in
                let editable = entry.pointer!.opaque
                let text = entry.text
                let count = text.unicodeScalars.count
                switch rng.weighted([count > 30 ? 1 : 5, 4, 1, 1]) {
                case 0:
                    let piece = randomText(&rng, alphabet: entryAlphabet, maxLength: 3)
                    let offset = Int.random(in: 0...count, using: &rng)
                    return UserEdit(
                        description: "insert \"\(piece)\" at \(offset)",
                        perform: {
                            var position = gint(offset)
                            gtk_editable_insert_text(editable, piece, -1, &position)
                        },
                        expectedControl: inserting(piece, at: offset, into: text)
                    )
                case 1:
                    let (start, end) = randomRange(&rng, count: count)
                    return UserEdit(
                        description: "delete \(start)..<\(end)",
                        perform: { gtk_editable_delete_text(editable, gint(start), gint(end)) },
                        expectedControl: deleting(start, end, from: text)
                    )
                case 2:
                    // Select all and type the same text: GTK notifies nothing.
                    return UserEdit(
                        description: "set the same text",
                        perform: { gtk_editable_set_text(editable, text) },
                        expectedControl: text
                    )
                default:
                    return UserEdit(
                        description: "Enter",
                        perform: { twb_signal_emit(UnsafeMutableRawPointer(gtk_editable_get_delegate(editable)), "activate") },
                        expectedControl: text
                    )
                }
            }
        )
    }

    // MARK: - GtkTextView

    static func textView(name: String, model: Observable<String>) throws -> Field<String, TextView> {
        let gtkTextView = gtk_text_view_new()!
        let buffer = gtk_text_view_get_buffer(gtkTextView.cast())!
        gtk_text_buffer_set_enable_undo(buffer, TWB_FALSE)
        return try Field(
            name: name, model: model, widget: gtkTextView, as: TextView.self, transform: .identity,
            describe: { "\"\($0.replacing("\n", with: "\\n"))\"" },
            modelValues: { rng, current in
                switch rng.weighted([1, 1, 6, 1]) {
                case 0: ""
                case 1: current
                case 2: randomText(&rng, alphabet: textAlphabet)
                default: randomText(&rng, alphabet: textAlphabet, maxLength: 60)
                }
            },
            displayProblem: { _, model in
                let shown = TextView.text(ofBuffer: buffer)
                return shown == model ? nil : "GtkTextBuffer text \"\(shown)\""
            },
            userEdits: { rng, textView in
                let text = textView.text
                let count = text.unicodeScalars.count
                let interactive = rng.chance(0.5)
                // NB: a @MainActor closure is Sendable, and may not capture
                // the (non-Sendable) buffer pointer; the wrapper it may.
                @MainActor func buffer() -> UnsafeMutablePointer<GtkTextBuffer> {
                    gtk_text_view_get_buffer(textView.pointer!.cast())
                }
                // Everything a user does arrives inside one user action.
                @MainActor func action(_ body: @escaping @MainActor () -> Void) -> @MainActor () -> Void {
                    {
                        gtk_text_buffer_begin_user_action(buffer())
                        body()
                        gtk_text_buffer_end_user_action(buffer())
                    }
                }
                @MainActor func insert(_ piece: String, at offset: Int) {
                    var iter = GtkTextIter()
                    let buffer = buffer()
                    gtk_text_buffer_get_iter_at_offset(buffer, &iter, gint(offset))
                    if interactive {
                        gtk_text_buffer_insert_interactive(buffer, &iter, piece, -1, TWB_TRUE)
                    } else {
                        gtk_text_buffer_insert(buffer, &iter, piece, -1)
                    }
                }
                @MainActor func delete(_ start: Int, _ end: Int) {
                    var from = GtkTextIter(), to = GtkTextIter()
                    let buffer = buffer()
                    gtk_text_buffer_get_iter_at_offset(buffer, &from, gint(start))
                    gtk_text_buffer_get_iter_at_offset(buffer, &to, gint(end))
                    if interactive {
                        gtk_text_buffer_delete_interactive(buffer, &from, &to, TWB_TRUE)
                    } else {
                        gtk_text_buffer_delete(buffer, &from, &to)
                    }
                }
                switch rng.weighted([count > 60 ? 1 : 5, 3, 2, 1, 1]) {
                case 0:
                    let piece = randomText(&rng, alphabet: textAlphabet, maxLength: 4)
                    let offset = Int.random(in: 0...count, using: &rng)
                    return UserEdit(
                        description: "type \"\(piece)\" at \(offset)\(interactive ? " (interactive)" : "")",
                        perform: action { insert(piece, at: offset) },
                        expectedControl: inserting(piece, at: offset, into: text)
                    )
                case 1:
                    let (start, end) = randomRange(&rng, count: count)
                    return UserEdit(
                        description: "delete \(start)..<\(end)",
                        perform: action { delete(start, end) },
                        expectedControl: deleting(start, end, from: text)
                    )
                case 2:
                    let (start, end) = randomRange(&rng, count: count)
                    let piece = randomText(&rng, alphabet: textAlphabet, maxLength: 3)
                    return UserEdit(
                        description: "replace \(start)..<\(end) by \"\(piece)\"",
                        perform: action { delete(start, end); insert(piece, at: start) },
                        expectedControl: inserting(piece, at: start, into: deleting(start, end, from: text))
                    )
                case 3:
                    // A paste of the selected text over itself: the buffer
                    // changes twice, the text not at all.
                    let (start, end) = randomRange(&rng, count: count)
                    let scalars = Array(text.unicodeScalars)[start..<end]
                    let same = String(String.UnicodeScalarView(scalars))
                    return UserEdit(
                        description: "replace \(start)..<\(end) by the same text",
                        perform: action { delete(start, end); insert(same, at: start) },
                        expectedControl: text
                    )
                default:
                    return UserEdit(description: "an empty user action", perform: action {}, expectedControl: text)
                }
            }
        )
    }

    // MARK: - GtkSwitch

    static func toggle(name: String, model: Observable<Bool>) throws -> Field<Bool, Switch> {
        let gtkSwitch = gtk_switch_new()!
        return try Field(
            name: name, model: model, widget: gtkSwitch, as: Switch.self, transform: .identity,
            modelValues: { rng, _ in rng.chance(0.5) },
            displayProblem: { toggle, model in
                let active = gtk_switch_get_active(toggle.pointer!.opaque) != 0
                let state = gtk_switch_get_state(toggle.pointer!.opaque) != 0
                return active == model && state == model ? nil : "GtkSwitch active=\(active) state=\(state)"
            },
            userEdits: { rng, toggle in
                let on = rng.chance(0.5)
                return UserEdit(
                    description: "switch \(on ? "on" : "off")",
                    perform: { gtk_switch_set_active(toggle.pointer!.opaque, on ? TWB_TRUE : TWB_FALSE) },
                    expectedControl: on
                )
            }
        )
    }

    // MARK: - GtkSpinButton

    /// The C macros GtkAdjustment clamps with: NaN goes to the bound.
    nonisolated static func adjustmentClamp(_ value: Double, _ lower: Double, _ upper: Double) -> Double {
        let atMost = value < upper ? value : upper
        return atMost > lower ? atMost : lower
    }

    struct SpinSetup {
        var lower: Double, upper: Double, step: Double, page: Double, digits: Int

        /// `value` as GTK's text shows it (printf: half to even on the
        /// exact binary value).
        func rounded(_ value: Double) -> Double {
            Double(String(format: "%.\(digits)f", value)) ?? value
        }

        /// What the spin button holds after `gtk_spin_button_set_value(value)` from `raw`.
        func afterSetValue(_ value: Double, raw: Double) -> Double {
            // gtk_spin_button_set_value ignores changes within its EPSILON.
            guard abs(value - raw) > 1e-10 else { return raw }
            return adjustmentClamp(value, lower, upper)
        }

        /// A value on the grid `digits` defines, inside the range or up to 5 outside.
        func gridValue(_ rng: inout SplitMix64) -> Double {
            var scale = 1.0
            for _ in 0..<digits { scale *= 10 }
            let steps = Int.random(in: Int((lower - 5) * scale)...Int((upper + 5) * scale), using: &rng)
            return Double(steps) / scale
        }
    }

    /// The value a spin button's wrapper reports after the binding asks it to
    /// show `wanted` (`ControlBinding.write`, then `SpinButton.updateValue`).
    static func spinCoerce(_ wanted: Double, _ spin: SpinButton, _ setup: SpinSetup) -> Double {
        let raw = gtk_spin_button_get_value(spin.pointer!.opaque)
        if setup.rounded(raw) == wanted { return wanted }
        let value = setup.rounded(wanted)
        if value == raw { return setup.rounded(raw) }
        return setup.rounded(setup.afterSetValue(value, raw: raw))
    }

    static func spinButton<Model: Equatable>(
        name: String,
        model: Observable<Model>,
        setup: SpinSetup,
        transform: ValueTransform<Model, Double>,
        validation: Observable<FieldValidation>? = nil,
        same: @escaping (Model, Model) -> Bool,
        modelValues: @escaping @MainActor (inout SplitMix64, Model) -> Model,
        focusElsewhere: @escaping @MainActor () -> UnsafeMutablePointer<GtkWidget>
    ) throws -> Field<Model, SpinButton> {
        let adjustment = gtk_adjustment_new(setup.lower, setup.lower, setup.upper, setup.step, setup.page, 0)
        let gtkSpin = gtk_spin_button_new(adjustment, setup.step, guint(setup.digits))!
        // Numeric off, as a survey window sets it: any typed text reaches the
        // spin button, and the layer's input handler judges it.
        gtk_spin_button_set_numeric(gtkSpin.opaque, TWB_FALSE)
        let spin = gtkSpin.opaque
        return try Field(
            name: name, model: model, widget: gtkSpin, as: SpinButton.self, transform: transform,
            validation: validation, same: same,
            modelValues: modelValues,
            coerce: { wanted, widget in spinCoerce(wanted, widget, setup) },
            displayProblem: { _, model in
                let value = transform.toControl(model)
                let text = String(cString: gtk_editable_get_text(spin))
                let expectedText = String(format: "%.\(setup.digits)f", value + 0.0)
                let raw = gtk_spin_button_get_value(spin)
                if text != expectedText { return "GtkSpinButton text \"\(text)\", expected \"\(expectedText)\"" }
                // The model holds what the text shows, not 0.30000000000000004.
                if setup.rounded(value) != value { return "the model holds \(value), the spin button shows \(text)" }
                if setup.rounded(raw) != value { return "GtkSpinButton value \(raw)" }
                return nil
            },
            userEdits: { rng, widget in
                let raw = gtk_spin_button_get_value(spin)
                let current = widget.value
                switch rng.weighted([4, 3, 4]) {
                case 0:
                    // The arrows, Page Up/Down, Home and End.
                    let kinds: [(String, GtkSpinType, Double)] = [
                        ("step up", GTK_SPIN_STEP_FORWARD, setup.step),
                        ("step down", GTK_SPIN_STEP_BACKWARD, -setup.step),
                        ("page up", GTK_SPIN_PAGE_FORWARD, setup.page),
                        ("page down", GTK_SPIN_PAGE_BACKWARD, -setup.page),
                        ("home", GTK_SPIN_HOME, setup.lower - raw),
                        ("end", GTK_SPIN_END, setup.upper - raw),
                    ]
                    let (label, direction, increment) = rng.pick(kinds)
                    // gtk_spin_button_real_spin: add, clamp on that side, and
                    // ignore changes within EPSILON.
                    var next = raw + increment
                    if increment > 0 { next = min(next, setup.upper) } else if increment < 0 { next = max(next, setup.lower) }
                    let result = abs(next - raw) > 1e-10 ? adjustmentClamp(next, setup.lower, setup.upper) : raw
                    let moves = direction == GTK_SPIN_HOME || direction == GTK_SPIN_END ? abs(increment) > 1e-10 : true
                    return UserEdit(
                        description: label,
                        perform: { gtk_spin_button_spin(spin, direction, 0) },
                        expectedControl: setup.rounded(moves ? result : raw)
                    )
                case 1:
                    let value = rng.chance(0.15) ? current : setup.gridValue(&rng)
                    return UserEdit(
                        description: "set value \(value)",
                        perform: { gtk_spin_button_set_value(spin, value) },
                        expectedControl: setup.rounded(setup.afterSetValue(value, raw: raw))
                    )
                default:
                    let texts = [
                        String(format: "%.2f", Double.random(in: (setup.lower - 5)...(setup.upper + 5), using: &rng)),
                        String(format: "%.0f", Double.random(in: setup.lower...setup.upper, using: &rng)),
                        String(format: " %.1f ", current + 0.0), String(format: "%.\(setup.digits)f", current + 0.0),
                        "3,5", "1e1", "-4", "abc", "", "nan", "inf", "12.3.4", "7x",
                    ]
                    let text = rng.pick(texts)
                    let commit = rng.pick(["update", "Enter", "focus leaving"])
                    // Bound, the layer's input handler parses and rounds;
                    // unbound, GTK's default input (g_strtod) parses.
                    let parsed = widget.binder != nil
                        ? SpinButton.testNumber(from: text).map(setup.rounded)
                        : gtkDefaultInput(text)
                    var expected = current
                    if var value = parsed {
                        // gtk_spin_button_update clamps (NaN passes), then sets.
                        if value < setup.lower { value = setup.lower } else if value > setup.upper { value = setup.upper }
                        expected = setup.rounded(setup.afterSetValue(value, raw: raw))
                    }
                    return UserEdit(
                        description: "type \"\(text)\", then \(commit)",
                        perform: {
                            switch commit {
                            case "update":
                                gtk_editable_set_text(spin, text)
                                gtk_spin_button_update(spin)
                            case "Enter":
                                gtk_editable_set_text(spin, text)
                                twb_signal_emit(UnsafeMutableRawPointer(gtk_editable_get_delegate(spin)), "activate")
                            default:
                                gtk_widget_grab_focus(gtkSpin)
                                gtk_editable_set_text(spin, text)
                                gtk_widget_grab_focus(focusElsewhere())
                            }
                        },
                        expectedControl: expected,
                        isRefused: parsed == nil,
                        // The layer answers with typed text that is not what
                        // the spin button shows, once it is committed.
                        isAnswer: widget.binder != nil && commit != "update" && parsed != nil
                            && text != String(format: "%.\(setup.digits)f", gtk_spin_button_get_value(spin))
                    )
                }
            }
        )
    }

    // MARK: - GtkScale

    static func scale(
        name: String,
        model: Observable<Float?>,
        validation: Observable<FieldValidation>? = nil
    ) throws -> Field<Float?, Scale> {
        let lower = 0.0, upper = 500_000.0
        let adjustment = gtk_adjustment_new(0, lower, upper, 1_000, 10_000, 0)
        let gtkScale = gtk_scale_new(GTK_ORIENTATION_HORIZONTAL, adjustment)!
        gtk_scale_set_draw_value(gtkScale.cast(), TWB_FALSE)
        gtk_range_set_round_digits(gtkScale.cast(), 0)
        let range: UnsafeMutablePointer<GtkRange> = gtkScale.cast()
        return try Field(
            name: name, model: model, widget: gtkScale, as: Scale.self,
            transform: .optional(.float, placeholder: 0), validation: validation,
            same: { a, b in a == b || (a?.isNaN == true && b?.isNaN == true) },
            modelValues: { rng, current in
                switch rng.weighted([1, 1, 3, 3, 2, 1]) {
                case 0: nil
                case 1: current
                case 2: Float(Int.random(in: 0...500, using: &rng) * 1_000)
                case 3: Float.random(in: 0...500_000, using: &rng)
                case 4: rng.pick([-1_000, 600_000, 1e30, -0.0, 500_000.5])
                default: rng.pick([Float.nan, .infinity, -.infinity])
                }
            },
            coerce: { wanted, _ in
                let raw = gtk_range_get_value(range)
                return raw == wanted ? wanted : adjustmentClamp(wanted, lower, upper)
            },
            displayProblem: { _, model in
                let raw = gtk_range_get_value(range)
                return Float(raw) == (model ?? 0) ? nil : "GtkRange value \(raw)"
            },
            userEdits: { rng, _ in
                let raw = gtk_range_get_value(range)
                let value = switch rng.weighted([3, 3, 1, 1]) {
                case 0: Double(Int.random(in: 0...500, using: &rng) * 1_000)
                case 1: Double.random(in: 0...500_000, using: &rng)
                case 2: rng.pick([-5_000, 750_000, raw + 1e-9])
                default: raw
                }
                return UserEdit(
                    description: "drag to \(value)",
                    perform: { gtk_range_set_value(range, value) },
                    expectedControl: adjustmentClamp(value, lower, upper)
                )
            }
        )
    }
}

/// What an unbound spin button makes of typed text: GTK's default input is
/// g_strtod, and under GTK_UPDATE_ALWAYS even its error ("7x", "abc") takes
/// the prefix's value (7, 0).
func gtkDefaultInput(_ text: String) -> Double? {
    text.withCString { start in g_strtod(start, nil) }
}

extension SpinButton {
    /// The layer's own parser (`number(from:)` is internal), restated: a
    /// finite number, with a point or a comma.
    static func testNumber(from text: String) -> Double? {
        let trimmed = String(text.trimmingWhitespace())
        let number = Double(trimmed) ?? Double(trimmed.replacing(",", with: "."))
        return number.flatMap { $0.isFinite ? $0 : nil }
    }
}

extension TextView {
    static func text(ofBuffer buffer: UnsafeMutablePointer<GtkTextBuffer>) -> String {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, TWB_TRUE) else { return "" }
        defer { g_free(chars) }
        return String(cString: chars)
    }
}
