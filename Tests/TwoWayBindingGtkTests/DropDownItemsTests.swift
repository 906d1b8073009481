import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// A drop-down whose choices come from an `ObservableList`: each change
/// reaches GTK as one splice, and the selected choice stays selected.
final class DropDownItemsTests: GtkTestCase {
    private struct Place {
        var name: String
    }

    @MainActor
    private static func titles(_ dropDown: DropDown) -> [String] {
        guard let pointer = dropDown.pointer, let model = gtk_drop_down_get_model(OpaquePointer(pointer)) else { return [] }
        return (0..<g_list_model_get_n_items(model)).map {
            gtk_string_list_get_string(model, $0).map { String(cString: $0) } ?? ""
        }
    }

    func testItems_followTheList_oneSpliceEach() {
        MainActor.assumeIsolated {
            let dropDown = DropDown()
            let window = GtkTest.window(dropDown.pointer!)
            defer { GtkTest.destroy(window) }
            let places = ObservableList([Place(name: "Remote"), Place(name: "Office")])
            let token = dropDown.showItems(places) { $0.name }
            defer { token.cancel() }
            XCTAssertEqual(Self.titles(dropDown), ["Remote", "Office"])

            let model = UnsafeMutableRawPointer(gtk_drop_down_get_model(OpaquePointer(dropDown.pointer!)))!
            let (handler, itemsChanged) = GtkTest.count("items-changed", of: model)
            defer { handler.cancel() }
            places.insert(Place(name: "Hybrid"), at: 1)
            XCTAssertEqual(Self.titles(dropDown), ["Remote", "Hybrid", "Office"])
            XCTAssertEqual(itemsChanged(), 1, "one insertion, one items-changed")

            places[2] = Place(name: "Head office")
            XCTAssertEqual(Self.titles(dropDown), ["Remote", "Hybrid", "Head office"])
            places.move(from: 0, to: 2)
            XCTAssertEqual(Self.titles(dropDown), ["Hybrid", "Head office", "Remote"])
            XCTAssertEqual(itemsChanged(), 4, "a replacement is one splice, a move two")

            token.cancel()
            places.append(Place(name: "Abroad"))
            XCTAssertEqual(Self.titles(dropDown).count, 3, "an ended token follows no more changes")
        }
    }

    func testSelectedChoice_staysSelected_andTheModelFollowsItsPosition() {
        MainActor.assumeIsolated {
            let dropDown = DropDown()
            let window = GtkTest.window(dropDown.pointer!)
            defer { GtkTest.destroy(window) }
            let places = ObservableList(["Remote", "Office", "Hybrid"])
            let token = dropDown.showItems(places) { $0 }
            defer { token.cancel() }
            let selected = Observable<Int?>(1)
            let binding = dropDown.bind(with: selected)
            XCTAssertEqual(dropDown.selectedIndex, 1)

            places.insert("Abroad", at: 0)
            XCTAssertEqual(dropDown.selectedIndex, 2, "Office is still the one selected")
            XCTAssertEqual(selected.value, 2, "and the model follows it")
            places.remove(at: 3)
            XCTAssertEqual(selected.value, 2, "a change after it moves nothing")
            XCTAssertEqual(places[selected.value!], "Office")
            XCTAssertEqual(binding.validation.value, .valid)
        }
    }

    func testDestroyedDropDown_theListLivesOn_withoutACrash() {
        MainActor.assumeIsolated {
            let dropDown = DropDown()
            let window = GtkTest.window(dropDown.pointer!)
            let places = ObservableList(["Remote"])
            let token = dropDown.showItems(places) { $0 }
            GtkTest.destroy(window)
            XCTAssertNil(dropDown.pointer)
            places.append("Office")
            places.replaceAll(with: [])
            token.cancel()
            XCTAssertEqual(places.count, 0)
        }
    }
}
