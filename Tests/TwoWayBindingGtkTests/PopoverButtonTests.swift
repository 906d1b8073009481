import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// A menu button opening a popover of other widgets (the date picker's
/// popover is tested with the date picker).
final class PopoverButtonTests: GtkTestCase {
    func testIconButton_isNamedByItsTooltip_andHoldsItsContent() {
        MainActor.assumeIsolated {
            let hour = SpinButton(range: 0...23, step: 1)
            let button = PopoverButton(iconName: "document-open-recent-symbolic", tooltip: "Pick a time", content: [hour])
            let window = GtkTest.window(button.pointer!)
            defer { GtkTest.destroy(window) }
            XCTAssertEqual(button.accessibleLabel, "Pick a time")
            XCTAssertEqual(String(cString: gtk_widget_get_tooltip_text(button.pointer!)), "Pick a time")
            let popover = gtk_widget_get_ancestor(hour.pointer!, gtk_popover_get_type())
            XCTAssertNotNil(popover, "the content is in the button's popover")
            XCTAssertEqual(gtk_widget_get_ancestor(popover!, gtk_menu_button_get_type()), button.pointer)
        }
    }
}
