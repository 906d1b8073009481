import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// The binder registry: one wrapper per widget, owned by the widget; bindings
/// that end with the widget; nothing left behind.
final class LifetimeTests: GtkTestCase {
    func testWrapping_givesOneWrapperPerWidget_ofTheMostSpecificClass() throws {
        try MainActor.assumeIsolated {
            let gtkEntry = gtk_entry_new()!
            let gtkSpin = gtk_spin_button_new_with_range(0, 10, 1)!
            let window = GtkTest.window(gtkEntry, gtkSpin)
            defer { GtkTest.destroy(window) }

            XCTAssertTrue(try Entry.wrapping(gtkEntry) === Entry.wrapping(gtkEntry))
            XCTAssertTrue(try Widget.wrapping(gtkEntry) === Entry.wrapping(gtkEntry))
            XCTAssertTrue(try Widget.wrapping(gtkSpin) is SpinButton, "a GtkSpinButton is an editable, but wraps as a SpinButton")
            XCTAssertTrue(try Widget.wrapping(window) is Window)
            let image = gtk_image_new()!
            g_object_ref_sink(UnsafeMutableRawPointer(image))
            defer { g_object_unref(UnsafeMutableRawPointer(image)) }
            XCTAssertTrue(type(of: try Widget.wrapping(image)) == Widget.self, "other widgets get the plain wrapper")
        }
    }

    func testWrappingTheWrongWidget_throwsAClearError_andWrapsNothing() throws {
        try MainActor.assumeIsolated {
            let gtkLabel = gtk_label_new("Name")!
            let window = GtkTest.window(gtkLabel)
            defer { GtkTest.destroy(window) }
            XCTAssertThrowsError(try Entry.wrapping(gtkLabel)) { error in
                XCTAssertEqual(error as? WidgetError, .wrongType(expected: "GtkEditable", actual: "GtkLabel"))
                XCTAssertEqual("\(error)", "a GtkLabel is not a GtkEditable")
            }
            XCTAssertThrowsError(try SpinButton.wrapping(UnsafeMutableRawPointer(gtk_adjustment_new(0, 0, 1, 1, 1, 0)!)
                .assumingMemoryBound(to: GObject.self))) { error in
                XCTAssertEqual(error as? WidgetError, .wrongType(expected: "GtkSpinButton", actual: "GtkAdjustment"))
            }
            // The label still wraps as what it is.
            XCTAssertTrue((try? Widget.wrapping(gtkLabel)) is Label)
        }
    }

    func testTypedConstructors_makeTheirWidget_andAreItsOneWrapper() throws {
        try MainActor.assumeIsolated {
            let label = Label("Name")
            let entry = Entry()
            let spin = SpinButton(range: 0...60, step: 0.5)
            let scale = Scale(range: 0...10, step: 1)
            let widgets: [Widget] = [
                label, entry, spin, scale, Switch(), TextView(), CheckButton(label: "Yes"), ToggleButton(label: "Bold"),
                DropDown(), DatePicker(),
            ]
            let window = GtkTest.window(widgets.map { $0.pointer! })
            defer { GtkTest.destroy(window) }
            for widget in widgets {
                XCTAssertTrue(try Widget.wrapping(widget.pointer!) === widget, "\(type(of: widget)) is its widget's wrapper")
            }
            XCTAssertEqual(label.text, "Name")
            let adjustment = gtk_spin_button_get_adjustment(spin.pointer!.opaque)
            XCTAssertEqual(gtk_adjustment_get_upper(adjustment), 60)
            XCTAssertEqual(gtk_adjustment_get_step_increment(adjustment), 0.5)
            XCTAssertEqual(gtk_adjustment_get_upper(gtk_range_get_adjustment(scale.pointer!.cast())), 10)
        }
    }

    func testWrapperLivesAsLongAsTheWidget_soTheBindingStaysActive() throws {
        try MainActor.assumeIsolated {
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            let name = Observable("Ada")
            // No Swift reference to the wrapper survives this line.
            weak let binding = try Entry.wrapping(gtkEntry).bind(with: name)
            weak let wrapper = try Entry.wrapping(gtkEntry)
            GtkTest.pump()

            XCTAssertNotNil(wrapper)
            XCTAssertEqual(binding?.isActive, true)
            name.value = "Grace"
            XCTAssertEqual(String(cString: gtk_editable_get_text(gtkEntry.opaque)), "Grace")

            GtkTest.destroy(window)
            XCTAssertNil(binding, "the widget's destruction released its binder")
            XCTAssertNil(wrapper, "finalization released the wrapper")
            XCTAssertEqual(name._observerCount, 0)
        }
    }

    func testRebind_replacesBinder_andUnbindCutsBothWays() throws {
        try MainActor.assumeIsolated {
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            defer { GtkTest.destroy(window) }
            let entry = try Entry.wrapping(gtkEntry)
            let first = Observable("one"), second = Observable("two")

            let firstBinding = entry.bind(with: first)
            let secondBinding = entry.bind(with: second)
            XCTAssertTrue(entry.binder === secondBinding)
            XCTAssertFalse(firstBinding.isActive)
            XCTAssertEqual(first._observerCount, 0)
            XCTAssertEqual(entry.text, "two")
            first.value = "ignored"
            XCTAssertEqual(entry.text, "two")

            secondBinding.unbind()
            XCTAssertNil(entry.binder)
            XCTAssertEqual(second._observerCount, 0)
            var position: gint = 3
            gtk_editable_insert_text(gtkEntry.opaque, "!", -1, &position)
            XCTAssertEqual(second.value, "two", "an unbound entry no longer writes the model")

            entry.bind(with: second, options: BindingOptions(initialSync: .controlToModel))
            XCTAssertEqual(second.value, "two!")
            second.value = "again"
            XCTAssertEqual(entry.text, "again")
        }
    }

    func testDestroyedWindow_observablesLiveOnAndChange_withoutCrashOrLeak() throws {
        try MainActor.assumeIsolated {
            let baseline = (Widget._liveCount, Widget._boundCount, Signal._liveClosureBoxCount)
            let name = Observable("Ada"), years = Observable(3.0), comments = Observable("")
            let validation = Observable(FieldValidation.invalid("Required"))
            var keptBinding: AnyBinding?
            do {
                let gtkEntry = gtk_entry_new()!, gtkSpin = gtk_spin_button_new_with_range(0, 50, 1)!
                let gtkTextView = gtk_text_view_new()!, gtkLabel = gtk_label_new(nil)!
                let window = GtkTest.window(gtkEntry, gtkSpin, gtkTextView, gtkLabel, present: true)
                keptBinding = try Entry.wrapping(gtkEntry).bind(with: name)
                try SpinButton.wrapping(gtkSpin).bind(with: years)
                try TextView.wrapping(gtkTextView).bind(with: comments)
                try Label.wrapping(gtkLabel).show(years) { "\($0)" }
                try Entry.wrapping(gtkEntry).showValidation(validation, message: try Label.wrapping(gtkLabel))
                // Focus leaving during teardown commits the spin button's text.
                gtk_widget_grab_focus(gtkSpin)
                gtk_editable_set_text(gtkSpin.opaque, "4")
                GtkTest.destroy(window)
            }

            XCTAssertEqual(years.value, 4)
            name.value = "Grace"
            years.value = 12
            comments.value = "still here"
            validation.value = .valid
            XCTAssertEqual(keptBinding?.isActive, false, "a handle kept by the caller is inert")
            keptBinding?.unbind()
            keptBinding = nil
            for observable in [name._observerCount, years._observerCount, comments._observerCount, validation._observerCount] {
                XCTAssertEqual(observable, 0)
            }
            XCTAssertEqual(Widget._liveCount, baseline.0)
            XCTAssertEqual(Widget._boundCount, baseline.1)
            XCTAssertEqual(Signal._liveClosureBoxCount, baseline.2)
        }
    }

    func testBindingADestroyedWidget_isInert() throws {
        try MainActor.assumeIsolated {
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            g_object_ref(gtkEntry)  // keeps the destroyed entry, and its wrapper, from finalizing
            let entry = try Entry.wrapping(gtkEntry)
            GtkTest.destroy(window)
            // Unparented but alive until disposed, as gtk_widget_unparent leaves it.
            g_object_run_dispose(gtkEntry.cast())
            XCTAssertNil(entry.pointer)

            let name = Observable("Ada")
            do {
                let binding = entry.bind(with: name)
                XCTAssertNil(entry.binder, "a destroyed widget takes no binder")
                XCTAssertEqual(entry.text, "")
                withExtendedLifetime(binding) {}
            }
            XCTAssertEqual(name._observerCount, 0, "the binding ended with the caller's handle")
            g_object_unref(gtkEntry)
            GtkTest.pump()
        }
    }

    func testWidgetNeverInAWindow_isReleasedWithItsBinding() throws {
        try MainActor.assumeIsolated {
            let before = Widget._liveCount
            let name = Observable("x")
            let gtkEntry = gtk_entry_new()!
            g_object_ref_sink(gtkEntry)
            try Entry.wrapping(gtkEntry).bind(with: name)
            XCTAssertEqual(Widget._liveCount, before + 1)
            g_object_unref(gtkEntry)
            GtkTest.pump()
            XCTAssertEqual(Widget._liveCount, before)
            XCTAssertEqual(name._observerCount, 0)
        }
    }

    func testThousandBindAndDestroyCycles_leaveNothingAlive() throws {
        try MainActor.assumeIsolated {
            let baseline = (Widget._liveCount, Widget._boundCount, Signal._liveClosureBoxCount)
            let name = Observable(""), years = Observable(1.0), isOn = Observable(false)
            let salary = Observable<Float>(10), comments = Observable(""), choice = Observable<Int?>(0)
            let validation = Observable(FieldValidation.valid)

            for cycle in 0..<1_000 {
                let gtkEntry = gtk_entry_new()!, gtkSpin = gtk_spin_button_new_with_range(0, 50, 1)!
                let gtkSwitch = gtk_switch_new()!, gtkScale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 100, 1)!
                let gtkTextView = gtk_text_view_new()!, gtkCheck = gtk_check_button_new()!
                let list = gtk_string_list_new(nil)
                gtk_string_list_append(list, "a")
                let gtkDropDown = gtk_drop_down_new(list, nil)!, gtkLabel = gtk_label_new(nil)!
                let window = GtkTest.window(gtkEntry, gtkSpin, gtkSwitch, gtkScale, gtkTextView, gtkCheck, gtkDropDown, gtkLabel)

                try Entry.wrapping(gtkEntry).bind(with: name)
                try SpinButton.wrapping(gtkSpin).bind(with: years)
                try Switch.wrapping(gtkSwitch).bind(with: isOn)
                try Scale.wrapping(gtkScale).bind(with: salary, transform: .float)
                try TextView.wrapping(gtkTextView).bind(with: comments)
                try CheckButton.wrapping(gtkCheck).bind(with: isOn)
                try DropDown.wrapping(gtkDropDown).bind(with: choice)
                try Label.wrapping(gtkLabel).show(name)
                try Entry.wrapping(gtkEntry).showValidation(validation, message: try Label.wrapping(gtkLabel))
                if cycle % 2 == 0 { name.value = "cycle \(cycle)" }

                gtk_window_destroy(window.cast())
                if cycle % 100 == 0 { GtkTest.pump() }
            }
            GtkTest.pump()

            XCTAssertEqual(Widget._liveCount, baseline.0, "wrappers left alive")
            XCTAssertEqual(Widget._boundCount, baseline.1, "binders left alive")
            XCTAssertEqual(Signal._liveClosureBoxCount, baseline.2, "signal closure boxes left alive")
            XCTAssertEqual(name._observerCount + years._observerCount + isOn._observerCount + salary._observerCount
                + comments._observerCount + choice._observerCount + validation._observerCount, 0)
        }
    }
}
