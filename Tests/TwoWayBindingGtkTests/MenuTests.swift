import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// `Menu`: items naming actions and their targets, sections and submenus,
/// menus from a `.ui` description, and a menu button opening one.
final class MenuTests: GtkTestCase {
    func testItems_nameTheirActionTargetAndWhetherTheyHide() throws {
        MainActor.assumeIsolated {
            let menu = Menu()
            menu.append("_Open Form…", action: "app.open-form")
            menu.append("visit.md", action: "app.open-recent", target: "/forms/visit.md")
            menu.append("_Export Responses…", action: "win.export-csv", hiddenWhenDisabled: true)
            XCTAssertEqual(menu.count, 3)
            XCTAssertEqual(menu.labels, ["_Open Form…", "visit.md", "_Export Responses…"])
            XCTAssertEqual(string(menu, 0, "action"), "app.open-form")
            XCTAssertNil(string(menu, 0, "target"), "no target for a plain action")
            XCTAssertEqual(string(menu, 1, "target"), "/forms/visit.md")
            XCTAssertNil(string(menu, 1, "hidden-when"))
            XCTAssertEqual(string(menu, 2, "hidden-when"), "action-disabled")
            menu.removeAll()
            XCTAssertEqual(menu.count, 0)
        }
    }

    func testSectionsAndSubmenus_showTheirMenusChangesLater() throws {
        MainActor.assumeIsolated {
            let menu = Menu()
            let recent = Menu()
            menu.append("_Quit", action: "app.quit")
            menu.appendSubmenu(recent, label: "Open _Recent")
            let opening = Menu()
            opening.append("_Open Form…", action: "app.open-form")
            menu.prependSection(opening)
            XCTAssertEqual(menu.labels, ["", "_Quit", "Open _Recent"], "the section first, without a label")
            let submenu = g_menu_model_get_item_link(menu.model, 2, "submenu")!
            defer { g_object_unref(UnsafeMutableRawPointer(submenu)) }
            XCTAssertEqual(g_menu_model_get_n_items(submenu), 0)
            // A submenu is the menu itself, not a copy: what is added later shows.
            recent.append("visit.md", action: "app.open-recent", target: "/forms/visit.md")
            XCTAssertEqual(g_menu_model_get_n_items(submenu), 1)
            let section = Menu()
            menu.appendSection(section, label: "Languages")
            XCTAssertEqual(menu.labels.last, "Languages")
        }
    }

    func testAMenuFromADescription_andAButtonOpeningIt() throws {
        try MainActor.assumeIsolated {
            let builder = try Builder(string: """
                <interface>
                  <menu id="primaryMenu">
                    <section>
                      <item>
                        <attribute name="label">_Quit</attribute>
                        <attribute name="action">app.quit</attribute>
                      </item>
                    </section>
                  </menu>
                  <object class="GtkAdjustment" id="notAMenu"/>
                </interface>
                """)
            let menu = try builder.menu("primaryMenu")
            XCTAssertEqual(menu.count, 1)
            XCTAssertThrowsError(try builder.menu("notAMenu")) { error in
                XCTAssertEqual(error as? BuilderError, .wrongType(id: "notAMenu", expected: "GMenu", actual: "GtkAdjustment"))
            }
            XCTAssertThrowsError(try builder.menu("missing")) { error in
                XCTAssertEqual(error as? BuilderError, .missingObject(id: "missing", expected: "GMenu"))
            }

            let button = PopoverButton(label: "Menu", content: [])
            let window = GtkTest.window(button.pointer!)
            defer { GtkTest.destroy(window) }
            button.menu = menu
            XCTAssertEqual(
                UnsafeMutableRawPointer(gtk_menu_button_get_menu_model(OpaquePointer(button.pointer!))),
                UnsafeMutableRawPointer(menu.model)
            )
            button.menu = nil
            XCTAssertNil(gtk_menu_button_get_menu_model(OpaquePointer(button.pointer!)))
        }
    }

}

/// The string attribute `attribute` of the item at `index`, if it has one.
@MainActor
private func string(_ menu: Menu, _ index: Int32, _ attribute: String) -> String? {
    guard let value = g_menu_model_get_item_attribute_value(menu.model, index, attribute, nil) else { return nil }
    defer { g_variant_unref(value) }
    return String(cString: g_variant_get_string(value, nil))
}
