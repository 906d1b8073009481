import CTwoWayBindingGtkShims
import Foundation
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// The loop `build-aux/leak-check` runs under valgrind: windows of every bound
/// widget kind made, bound, edited, unbound, rebound and destroyed, with view
/// models and histories that come and go. Run alone it checks the layer's own
/// counters; under memcheck, that no block allocated through the project's
/// code is lost.
///
/// `LEAK_LOOP_CYCLES` sets the number of cycles (60 by default).
/// `LEAK_LOOP_INJECT_LEAK=1` leaks a retain cycle per cycle on purpose, to
/// show that the leak check catches one.
final class LeakLoopTests: GtkTestCase {
    func testLeakLoop_bindUnbindDestroyCycles_leaveNothingBehind() throws {
        try MainActor.assumeIsolated {
            let cycles = RandomizedRun.count("LEAK_LOOP_CYCLES", default: 60)
            let injectLeak = ProcessInfo.processInfo.environment["LEAK_LOOP_INJECT_LEAK"] == "1"
            let baseline = (Widget._liveCount, Widget._boundCount, Signal._liveClosureBoxCount)
            // Long-lived models, as an application's would be.
            let name = Observable("Ada"), years = Observable<Double?>(3), isOn = Observable(false)
            let salary = Observable<Float?>(nil), comments = Observable(""), choice = Observable<Int?>(0)
            let validation = Observable(FieldValidation.valid)
            weak var lastViewModel: SampleSurveyModel?
            weak var lastHistory: EditHistory?
            weak var lastBinding: AnyBinding?
            weak var lastWrapper: Widget?

            for cycle in 0..<cycles {
                do {
                    let viewModel = SampleSurveyModel()
                    let history = EditHistory()
                    let tracking = ObservationToken.Bag()
                    defer { tracking.cancelAll() }
                    history.track(name, coalescing: true).store(in: tracking)
                    history.track(years).store(in: tracking)
                    lastViewModel = viewModel
                    lastHistory = history

                    let gtkEntry = gtk_entry_new()!, gtkCompany = gtk_entry_new()!
                    let gtkSpin = gtk_spin_button_new_with_range(0, 60, 0.5)!
                    let gtkSwitch = gtk_switch_new()!
                    let gtkScale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 500_000, 1_000)!
                    let gtkTextView = gtk_text_view_new()!, gtkCheck = gtk_check_button_new()!
                    let list = gtk_string_list_new(nil)
                    gtk_string_list_append(list, "a")
                    gtk_string_list_append(list, "b")
                    let gtkDropDown = gtk_drop_down_new(list, nil)!
                    let gtkLabel = gtk_label_new(nil)!, gtkErrorLabel = gtk_label_new(nil)!
                    let window = GtkTest.window([
                        gtkEntry, gtkCompany, gtkSpin, gtkSwitch, gtkScale, gtkTextView, gtkCheck, gtkDropDown,
                        gtkLabel, gtkErrorLabel,
                    ])
                    // Realized, mapped and drawn every tenth cycle: more of GTK runs.
                    if cycle % 10 == 0 { XCTAssertTrue(GtkTest.present(window), "cycle \(cycle): the window did not show") }

                    let entry = try Entry.wrapping(gtkEntry)
                    lastBinding = entry.bind(with: name)
                    lastWrapper = entry
                    try Entry.wrapping(gtkCompany).bind(with: viewModel.companyName)
                    try SpinButton.wrapping(gtkSpin).bind(
                        with: years, transform: .optional(.identity, placeholder: 0),
                        options: BindingOptions(validation: viewModel.inputErrors[.yearsOfExperience])
                    )
                    try Switch.wrapping(gtkSwitch).bind(with: isOn)
                    try Scale.wrapping(gtkScale).bind(with: salary, transform: .optional(.float, placeholder: 0))
                    try TextView.wrapping(gtkTextView).bind(with: comments)
                    try CheckButton.wrapping(gtkCheck).bind(with: viewModel.isCurrentEmployer)
                    try DropDown.wrapping(gtkDropDown).bind(with: choice)
                    try Label.wrapping(gtkLabel).show(viewModel.summary)
                    entry.showValidation(validation, message: try Label.wrapping(gtkErrorLabel))
                    try SpinButton.wrapping(gtkSpin).showValidation(viewModel.validation(for: .yearsOfExperience))

                    // Model sets, user input, a refused input, undo.
                    name.value = "cycle \(cycle)"
                    var position: gint = 0
                    gtk_editable_insert_text(gtkEntry.opaque, "x", -1, &position)
                    gtk_editable_insert_text(gtkCompany.opaque, "ACME", -1, &position)
                    gtk_spin_button_spin(gtkSpin.opaque, GTK_SPIN_STEP_FORWARD, 0)
                    gtk_editable_set_text(gtkSpin.opaque, "abc")
                    gtk_spin_button_update(gtkSpin.opaque)
                    gtk_switch_set_active(gtkSwitch.opaque, cycle % 2 == 0 ? TWB_TRUE : TWB_FALSE)
                    gtk_range_set_value(gtkScale.cast(), Double(cycle * 1_000))
                    let buffer = gtk_text_view_get_buffer(gtkTextView.cast())!
                    gtk_text_buffer_insert_interactive_at_cursor(buffer, "note ", -1, TWB_TRUE)
                    gtk_check_button_set_active(gtkCheck.cast(), TWB_TRUE)
                    gtk_drop_down_set_selected(gtkDropDown.opaque, guint(cycle % 2))
                    batch {
                        years.value = Double(cycle % 60)
                        salary.value = 80
                        validation.value = cycle % 3 == 0 ? .invalid("bad") : .valid
                    }
                    history.undo()
                    history.redo()
                    viewModel.history.undo()

                    // Unbind some, rebind others, replace one.
                    try Switch.wrapping(gtkSwitch).binder?.unbind()
                    try TextView.wrapping(gtkTextView).bind(with: comments, options: BindingOptions(initialSync: .controlToModel))
                    try Entry.wrapping(gtkCompany).bind(with: name)

                    if injectLeak { LeakyCycle.make() }
                    gtk_window_destroy(window.cast())
                    GtkTest.pump()
                }
            }
            GtkTest.pump()

            XCTAssertNil(lastViewModel, "a view model outlived its window")
            XCTAssertNil(lastHistory, "a history outlived its cycle")
            XCTAssertNil(lastBinding, "a binding outlived its widget")
            XCTAssertNil(lastWrapper, "a wrapper outlived its widget")
            XCTAssertEqual(Widget._liveCount, baseline.0, "wrappers left alive")
            XCTAssertEqual(Widget._boundCount, baseline.1, "binders left alive")
            XCTAssertEqual(Signal._liveClosureBoxCount, baseline.2, "signal closure boxes left alive")
            XCTAssertEqual(
                name._observerCount + years._observerCount + isOn._observerCount + salary._observerCount
                    + comments._observerCount + choice._observerCount + validation._observerCount, 0,
                "observers left on the long-lived models"
            )
        }
    }
}

/// A deliberate leak for `LEAK_LOOP_INJECT_LEAK=1`: an observable whose
/// observer holds the object that holds the observable.
@MainActor
private final class LeakyCycle {
    let observable = Observable(0)
    var token: ObservationToken?

    static func make() {
        let leaky = LeakyCycle()
        leaky.token = leaky.observable.observe { _ in _ = leaky }
    }
}
