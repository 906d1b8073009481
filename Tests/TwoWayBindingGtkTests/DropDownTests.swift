import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

final class DropDownTests: GtkTestCase {
    @MainActor
    private static func makeDropDown(_ items: [String]) -> UnsafeMutablePointer<GtkWidget> {
        let list = gtk_string_list_new(nil)
        for item in items { gtk_string_list_append(list, item) }
        // The drop-down takes the list's reference.
        return gtk_drop_down_new(list, nil)
    }

    func testSelection_bothWays_andOutOfRangeReconciled() throws {
        try MainActor.assumeIsolated {
            let gtkDropDown = Self.makeDropDown(["Remote", "Office", "Hybrid"])
            let window = GtkTest.window(gtkDropDown)
            defer { GtkTest.destroy(window) }
            let dropDown = try DropDown.wrapping(gtkDropDown)
            let workplace = Observable<Int?>(2)
            let binding = dropDown.bind(with: workplace)
            XCTAssertEqual(gtk_drop_down_get_selected(gtkDropDown.opaque), 2)

            let (token, notifications) = workplace.countNotifications()
            defer { token.cancel() }
            gtk_drop_down_set_selected(gtkDropDown.opaque, 0)  // as picking from the popover would
            XCTAssertEqual(workplace.value, 0)
            XCTAssertEqual(notifications.value, 1)

            workplace.value = 7
            XCTAssertNil(dropDown.selectedIndex)
            XCTAssertNil(workplace.value, "an index past the end selects nothing, and the model follows")
            XCTAssertEqual(binding._controlWriteCount, 2)
        }
    }

    func testSelectionTransform_requiresAChoice() throws {
        try MainActor.assumeIsolated {
            let gtkDropDown = Self.makeDropDown(["Remote", "Office"])
            let window = GtkTest.window(gtkDropDown)
            defer { GtkTest.destroy(window) }
            let workplace = Observable(1)
            let binding = try DropDown.wrapping(gtkDropDown)
                .bind(with: workplace, transform: .selection(invalidMessage: "Choose a workplace"))

            gtk_drop_down_set_selected(gtkDropDown.opaque, TWB_INVALID_LIST_POSITION)
            XCTAssertEqual(workplace.value, 1)
            XCTAssertEqual(binding.validation.value, .invalid("Choose a workplace"))
        }
    }
}
