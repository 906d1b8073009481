import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// The typed layout calls an app uses instead of GTK's C API: a box, style
/// classes, tooltips, alignment, margins and a wrapping label.
final class LayoutTests: GtkTestCase {
    func testBox_appendsInOrder_andEmpties() throws {
        try MainActor.assumeIsolated {
            let box = Box(vertical: false, spacing: 6)
            let window = GtkTest.window(box.pointer!)
            defer { GtkTest.destroy(window) }
            let first = Label("first"), second = Entry()
            box.append(first)
            box.append(second)
            XCTAssertEqual(gtk_widget_get_first_child(box.pointer!), first.pointer)
            XCTAssertEqual(gtk_widget_get_last_child(box.pointer!), second.pointer)
            XCTAssertEqual(gtk_box_get_spacing(box.pointer!.cast()), 6)
            XCTAssertEqual(gtk_orientable_get_orientation(OpaquePointer(box.pointer!)), GTK_ORIENTATION_HORIZONTAL)
            XCTAssertTrue(try Widget.wrapping(box.pointer!) === box, "a box wraps as its Box")

            box.removeAll()
            XCTAssertNil(gtk_widget_get_first_child(box.pointer!))
        }
    }

    func testStyleTooltipAlignmentMargins_reachTheWidget() {
        MainActor.assumeIsolated {
            let label = Label("Hint")
            let window = GtkTest.window(label.pointer!)
            defer { GtkTest.destroy(window) }
            label.addStyleClass("dim-label")
            XCTAssertEqual(gtk_widget_has_css_class(label.pointer!, "dim-label"), 1)
            label.removeStyleClass("dim-label")
            XCTAssertEqual(gtk_widget_has_css_class(label.pointer!, "dim-label"), 0)

            label.tooltip = "More"
            XCTAssertEqual(label.tooltip, "More")
            label.tooltip = nil
            XCTAssertNil(label.tooltip)
            // Set on a widget in no window (as a list's rows are made, while
            // GTK is not asked where the pointer is), it leaves the widget
            // shown or hidden as it was.
            let loose = Label("Loose")
            loose.tooltip = "Row"
            XCTAssertEqual(loose.tooltip, "Row")
            XCTAssertTrue(loose.isVisible)
            loose.isVisible = false
            loose.tooltip = "Hidden row"
            XCTAssertEqual(loose.tooltip, "Hidden row")
            XCTAssertFalse(loose.isVisible)

            label.horizontalAlignment = .center
            XCTAssertEqual(label.horizontalAlignment, .center)
            XCTAssertEqual(gtk_widget_get_halign(label.pointer!), GTK_ALIGN_CENTER)
            label.expandsHorizontally = true
            XCTAssertTrue(label.expandsHorizontally)

            label.setMargins(top: 1, bottom: 2, start: 3, end: 4)
            XCTAssertEqual(
                [gtk_widget_get_margin_top(label.pointer!), gtk_widget_get_margin_bottom(label.pointer!),
                 gtk_widget_get_margin_start(label.pointer!), gtk_widget_get_margin_end(label.pointer!)],
                [1, 2, 3, 4]
            )

            label.wrapsWords = true
            XCTAssertTrue(label.wrapsWords)
            XCTAssertEqual(gtk_label_get_wrap_mode(OpaquePointer(label.pointer!)), PANGO_WRAP_WORD)
            XCTAssertEqual(gtk_label_get_xalign(OpaquePointer(label.pointer!)), 0)
        }
    }

    func testEllipsizingLabel_keepsALineAPerParagraphWhateverItsWidth() {
        MainActor.assumeIsolated {
            let long = String(repeating: "a long respondent name ", count: 20)
            let label = Label("\(long)\nsecond line")
            label.ellipsizesLines = true
            XCTAssertTrue(label.ellipsizesLines)
            let pointer = label.pointer!
            XCTAssertEqual(gtk_label_get_ellipsize(OpaquePointer(pointer)), PANGO_ELLIPSIZE_END)
            XCTAssertEqual(gtk_label_get_xalign(OpaquePointer(pointer)), 0)
            var minimumWidth: Int32 = 0, naturalWidth: Int32 = 0
            gtk_widget_measure(pointer, GTK_ORIENTATION_HORIZONTAL, -1, &minimumWidth, &naturalWidth, nil, nil)
            // Narrow, it still asks the height of two lines, not of a wrapped paragraph.
            var narrow: Int32 = 0, twoLines: Int32 = 0, oneLine: Int32 = 0
            gtk_widget_measure(pointer, GTK_ORIENTATION_VERTICAL, minimumWidth, &narrow, nil, nil, nil)
            gtk_widget_measure(pointer, GTK_ORIENTATION_VERTICAL, naturalWidth, &twoLines, nil, nil, nil)
            label.text = "one line"
            gtk_widget_measure(pointer, GTK_ORIENTATION_VERTICAL, -1, &oneLine, nil, nil, nil)
            XCTAssertLessThan(minimumWidth * 10, naturalWidth)
            XCTAssertEqual(narrow, twoLines)
            XCTAssertGreaterThan(twoLines, oneLine)

            label.ellipsizesLines = false
            XCTAssertFalse(label.ellipsizesLines)
        }
    }

    func testDestroyedWidget_takesLayoutCallsWithoutACrash() {
        MainActor.assumeIsolated {
            let box = Box(vertical: true)
            let window = GtkTest.window(box.pointer!)
            GtkTest.destroy(window)
            XCTAssertNil(box.pointer)
            box.append(Label("late"))
            box.removeAll()
            box.addStyleClass("card")
            box.setMargins(top: 12)
            box.tooltip = "gone"
            XCTAssertNil(box.tooltip)
            XCTAssertEqual(box.horizontalAlignment, .fill)
        }
    }

    func testGrid_placesChildrenInCells_andEmpties() throws {
        try MainActor.assumeIsolated {
            let grid = Grid(columnSpacing: 12, rowSpacing: 4)
            let window = GtkTest.window(grid.pointer!)
            defer { GtkTest.destroy(window) }
            let a = Label("a"), b = Label("b")
            grid.attach(a, column: 0, row: 0)
            grid.attach(b, column: 2, row: 1, width: 2)
            grid.columnsAreHomogeneous = true
            XCTAssertTrue(grid.columnsAreHomogeneous)
            var column: Int32 = 0, row: Int32 = 0, width: Int32 = 0, height: Int32 = 0
            gtk_grid_query_child(grid.pointer!.cast(), b.pointer!, &column, &row, &width, &height)
            XCTAssertEqual([column, row, width, height], [2, 1, 2, 1])
            XCTAssertEqual(gtk_grid_get_column_spacing(grid.pointer!.cast()), 12)
            grid.removeAll()
            XCTAssertNil(gtk_widget_get_first_child(grid.pointer!))
        }
    }

    func testTheDefaultDirection_mirrorsEveryWidgetThatSetsNone() {
        MainActor.assumeIsolated {
            let box = Box(vertical: false)
            let window = GtkTest.window(box.pointer!)
            defer {
                TextDirection.default = .ofLocale
                GtkTest.destroy(window)
            }
            TextDirection.default = .rightToLeft
            XCTAssertEqual(box.textDirection, .rightToLeft)
            TextDirection.default = .leftToRight
            XCTAssertEqual(box.textDirection, .leftToRight)
        }
    }
}
