import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

final class RadioGroupTests: GtkTestCase {
    private enum Size: Equatable { case small, medium, large }

    @MainActor
    private static func buttons(_ labels: [String]) -> (window: UnsafeMutablePointer<GtkWidget>, [UnsafeMutablePointer<GtkWidget>]) {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        let buttons = labels.map { gtk_check_button_new_with_label($0)! }
        for button in buttons { gtk_box_append(box.cast(to: GtkBox.self), button) }
        return (GtkTest.window(box), buttons)
    }

    @MainActor
    private static func checked(_ buttons: [UnsafeMutablePointer<GtkWidget>]) -> [Int] {
        buttons.indices.filter { gtk_check_button_get_active(buttons[$0].cast()) != 0 }
    }

    func testIndex_bothWays_oneModelChangePerClick() throws {
        try MainActor.assumeIsolated {
            let (window, buttons) = Self.buttons(["Red", "Green", "Blue"])
            defer { GtkTest.destroy(window) }
            let colour = Observable<Int?>(nil)
            let binding = try RadioGroup(buttons) <-> colour
            XCTAssertEqual(Self.checked(buttons), [], "nothing chosen yet")
            let (token, notifications) = colour.countNotifications()
            defer { token.cancel() }

            twb_signal_emit(buttons[1], "activate")  // as a click or Space would
            XCTAssertEqual(colour.value, 1)
            twb_signal_emit(buttons[2], "activate")
            XCTAssertEqual(colour.value, 2)
            XCTAssertEqual(Self.checked(buttons), [2], "one button at most: they are one group")
            XCTAssertEqual(notifications.value, 2, "each click is one change, with no nil between")
            XCTAssertEqual(binding._controlWriteCount, 0)

            colour.value = 0
            XCTAssertEqual(Self.checked(buttons), [0])
            colour.value = nil
            XCTAssertEqual(Self.checked(buttons), [])
            XCTAssertEqual(notifications.value, 4, "the group's echo of the model's writes is not the user's")
        }
    }

    func testEnum_withAModelThatAlwaysHoldsAChoice() throws {
        try MainActor.assumeIsolated {
            let (window, buttons) = Self.buttons(["S", "M", "L"])
            defer { GtkTest.destroy(window) }
            let size = Observable(Size.large)
            let group = try RadioGroup([(buttons[0], Size.small), (buttons[1], .medium), (buttons[2], .large)])
            let binding = group.bind(with: size)
            XCTAssertEqual(Self.checked(buttons), [2], "the model's choice is checked at once")
            twb_signal_emit(buttons[0], "activate")
            XCTAssertEqual(size.value, .small)
            XCTAssertTrue(binding.validation.value.isValid)
            size.value = .medium
            XCTAssertEqual(Self.checked(buttons), [1])
        }
    }

    /// Buttons a .ui file grouped already join the group once, not in a
    /// cycle (GTK 4.8's set_active would never return).
    func testButtonsAlreadyGrouped_areGroupedOnce() throws {
        try MainActor.assumeIsolated {
            let builder = try Builder(string: """
                <interface><object class="GtkBox">
                  <child><object class="GtkCheckButton" id="a"/></child>
                  <child><object class="GtkCheckButton" id="b"><property name="group">a</property></object></child>
                  <child><object class="GtkCheckButton" id="c"><property name="group">a</property></object></child>
                </object></interface>
                """)
            let buttons = try ["a", "b", "c"].map { try builder.object($0, as: CheckButton.self).pointer! }
            let window = GtkTest.window(gtk_widget_get_parent(buttons[0])!)
            defer { GtkTest.destroy(window) }
            let choice = Observable<Int?>(nil)
            try RadioGroup(buttons) <-> choice
            for index in [2, 0, 1, 2] { choice.value = index }
            XCTAssertEqual(Self.checked(buttons), [2])
            twb_signal_emit(buttons[0], "activate")
            XCTAssertEqual(choice.value, 0)
            XCTAssertEqual(Self.checked(buttons), [0])
        }
    }

    func testAModelOutlivingItsButtons_isLeftAlone() throws {
        try MainActor.assumeIsolated {
            let (window, buttons) = Self.buttons(["Yes", "No"])
            let answer = Observable<Int?>(0)
            let binding = try RadioGroup(buttons) <-> answer
            GtkTest.destroy(window)
            answer.value = 1
            XCTAssertEqual(answer.value, 1)
            XCTAssertFalse(binding.isActive, "the group went with its buttons, and its binding with it")
        }
    }
}
