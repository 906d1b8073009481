import CTwoWayBindingGtkShims
import GtkTestSupport
import TwoWayBinding
import TwoWayBindingGtk
import XCTest

/// A drop-down searched by typing: the search entry takes the keys as the
/// list opens, and a row picked from the narrowed list is the one selected.
final class DropDownSearchTests: GtkTestCase {
    func testARowPickedFromTheNarrowedListIsSelected() throws {
        try MainActor.assumeIsolated {
            let dropDown = DropDown()
            let window = GtkTest.window(dropDown.pointer!, present: true)
            defer { GtkTest.destroy(window) }
            let places = ObservableList(["Kibera", "Mathare", "Korogocho"])
            let token = dropDown.showItems(places) { $0 }
            defer { token.cancel() }
            XCTAssertFalse(dropDown.isSearchable)
            dropDown.enableSearch(label: "Search places")
            XCTAssertTrue(dropDown.isSearchable)
            let model = Observable(0)
            dropDown.bind(with: model, transform: .selection(invalidMessage: "Choose a place"))

            let button = try XCTUnwrap(Widget.descendant(of: dropDown.pointer!, ofType: gtk_toggle_button_get_type()))
            gtk_toggle_button_set_active(button.cast(), 1)
            let popover = try XCTUnwrap(Widget.descendant(of: dropDown.pointer!, ofType: gtk_popover_get_type()))
            let entry = try XCTUnwrap(Widget.descendant(of: popover, ofType: gtk_search_entry_get_type()))
            XCTAssertTrue(GtkTest.pump(until: {
                // The entry passes focus to the text inside it.
                guard let focus = gtk_root_get_focus(OpaquePointer(window)) else { return false }
                return focus == entry || gtk_widget_is_ancestor(focus, entry) != 0
            }, timeout: 30), "typing goes to the search entry as the list opens")
            XCTAssertEqual(try Widget.wrapping(entry).accessibleLabel, "Search places")

            let list = try XCTUnwrap(Widget.descendant(of: popover, ofType: gtk_list_view_get_type()))
            let shown = try XCTUnwrap(gtk_list_view_get_model(OpaquePointer(list)))
            gtk_editable_set_text(OpaquePointer(entry), "koro")
            XCTAssertTrue(GtkTest.pump(until: { g_list_model_get_n_items(shown) == 1 }, timeout: 30), "the list narrowed to Korogocho")
            gtk_selection_model_select_item(shown, 0, 1)
            twb_emit_position(UnsafeMutableRawPointer(list), "activate", 0)
            GtkTest.pump()
            XCTAssertEqual(dropDown.selectedIndex, 2, "Korogocho, the third of the whole list")
            XCTAssertEqual(model.value, 2)
        }
    }
}
