import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// An observable list in a GtkListView: rows only for what is in view, one
/// items-changed per small change, a rewrite in place told GTK not at all
/// and shown a share at a time, each row's bindings ended as GTK unbinds it.
final class ListViewTests: GtkTestCase {
    @MainActor
    private final class Rows {
        var made = 0
        var bound = 0
        var unbound = 0
    }

    /// A 300×200 window scrolling a list view of `list`; each row a label
    /// showing its element's observable text.
    @MainActor
    private static func show(
        _ list: ObservableList<Observable<String>>, rows: Rows
    ) throws -> (window: UnsafeMutablePointer<GtkWidget>, view: UnsafeMutablePointer<GtkWidget>, token: ObservationToken) {
        let view = gtk_list_view_new(nil, nil)!
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(scrolled.opaque, view)
        gtk_widget_set_vexpand(scrolled, TWB_TRUE)
        let window = GtkTest.window(scrolled)
        gtk_window_set_default_size(window.cast(), 300, 200)
        let token = try ListView.wrapping(view).show(list, makeRow: { () -> Label in
            rows.made += 1
            return Label()
        }, bindRow: { row, element, bag in
            rows.bound += 1
            row.show(element)
            ObservationToken { rows.unbound += 1 }.store(in: bag)
        })
        GtkTest.activate(window)
        return (window, view, token)
    }

    @MainActor
    private static func texts(_ view: UnsafeMutablePointer<GtkWidget>) -> [String] {
        var texts: [String] = []
        var child = gtk_widget_get_first_child(view)
        while let current = child {
            if let label = gtk_widget_get_first_child(current), gtk_widget_get_mapped(current) != 0 {
                texts.append(String(cString: gtk_label_get_text(OpaquePointer(label))))
            }
            child = gtk_widget_get_next_sibling(current)
        }
        return texts
    }

    func testAHundredThousandElementsMakeOnlyTheRowsInView() throws {
        try MainActor.assumeIsolated {
            let list = ObservableList((0..<100_000).map { Observable("Row \($0)") })
            let rows = Rows()
            let (window, view, token) = try Self.show(list, rows: rows)
            defer { token.cancel(); GtkTest.destroy(window) }
            GtkTest.pump(until: { Self.texts(view).contains("Row 0") })
            XCTAssertTrue(Self.texts(view).contains("Row 0"))
            XCTAssertGreaterThan(rows.made, 0)
            // GTK 4.8 keeps about 200 rows around the ones in view.
            XCTAssertLessThan(rows.made, 300, "rows for the elements in view, not for 100,000")
            XCTAssertLessThan(rows.bound, 300)

            // A full reload makes no more rows than the view needs either.
            let made = rows.made
            list.replaceAll(with: (0..<100_000).map { Observable("Reloaded \($0)") })
            GtkTest.pump(until: { Self.texts(view).contains("Reloaded 0") })
            XCTAssertTrue(Self.texts(view).contains("Reloaded 0"))
            XCTAssertLessThan(rows.made, made + 300)
        }
    }

    func testAnInsertionOrRemoval_bindsOnlyTheRowItChanges_howeverLongTheList() throws {
        try MainActor.assumeIsolated {
            for size in [50, 1_000, 100_000] {
                let list = ObservableList((0..<size).map { Observable("Row \($0)") })
                let rows = Rows()
                let (window, view, token) = try Self.show(list, rows: rows)
                defer { token.cancel(); GtkTest.destroy(window) }
                GtkTest.pump(until: { Self.texts(view).contains("Row 0") })
                GtkTest.pump()
                let (bound, unbound) = (rows.bound, rows.unbound)

                list.insert(Observable("New"), at: 0)
                GtkTest.pump(until: { Self.texts(view).first == "New" })
                GtkTest.pump()
                XCTAssertEqual(Self.texts(view).first, "New", "\(size) elements")
                // The rows GTK keeps move down one; only the new one is bound,
                // and at most the last one kept is let go.
                XCTAssertEqual(rows.bound - bound, 1, "binds for an insertion at the top of \(size) elements")
                XCTAssertLessThanOrEqual(rows.unbound - unbound, 1, "\(size) elements")

                let (boundBefore, unboundBefore) = (rows.bound, rows.unbound)
                list.remove(at: 0)
                GtkTest.pump(until: { Self.texts(view).first == "Row 0" })
                GtkTest.pump()
                XCTAssertEqual(Self.texts(view).first, "Row 0", "\(size) elements")
                XCTAssertLessThanOrEqual(rows.bound - boundBefore, 1, "binds for a removal at the top of \(size) elements")
                // A longer list brings one more row into what GTK keeps.
                XCTAssertEqual(rows.unbound - unboundBefore, 1, "the removed row is let go, and only it")
            }
        }
    }

    func testEachChangeIsOneItemsChangedAndReachesTheRows() throws {
        try MainActor.assumeIsolated {
            let list = ObservableList(["Ada", "Grace"].map { Observable($0) })
            let rows = Rows()
            let (window, view, token) = try Self.show(list, rows: rows)
            defer { token.cancel(); GtkTest.destroy(window) }
            GtkTest.pump(until: { Self.texts(view) == ["Ada", "Grace"] })
            XCTAssertEqual(Self.texts(view), ["Ada", "Grace"])
            let model = UnsafeMutableRawPointer(gtk_list_view_get_model(OpaquePointer(view)))!
            let (handler, itemsChanged) = GtkTest.count("items-changed", of: model)
            defer { handler.cancel() }

            list.insert(Observable("Edsger"), at: 1)
            XCTAssertEqual(itemsChanged(), 1)
            XCTAssertEqual(g_list_model_get_n_items(OpaquePointer(model)), 3)
            GtkTest.pump(until: { Self.texts(view) == ["Ada", "Edsger", "Grace"] })
            XCTAssertEqual(Self.texts(view), ["Ada", "Edsger", "Grace"])

            // A row's widgets stay bound to its element while it is shown.
            list[0].value = "Ada Lovelace"
            GtkTest.pump(until: { Self.texts(view).first == "Ada Lovelace" })
            XCTAssertEqual(Self.texts(view).first, "Ada Lovelace")

            let unbound = rows.unbound
            list.remove(at: 1)
            XCTAssertEqual(itemsChanged(), 2)
            GtkTest.pump(until: { Self.texts(view) == ["Ada Lovelace", "Grace"] })
            XCTAssertEqual(Self.texts(view), ["Ada Lovelace", "Grace"])
            XCTAssertGreaterThan(rows.unbound, unbound, "the removed row's bindings ended")
        }
    }

    func testARewriteOfManyElementsKeepsTheRowsAndReachesEachAShareAtATime() throws {
        try MainActor.assumeIsolated {
            let old = (0..<10_000).map { Observable("Row \($0)") }
            let list = ObservableList(old)
            let rows = Rows()
            let (window, view, token) = try Self.show(list, rows: rows)
            defer { token.cancel(); GtkTest.destroy(window) }
            GtkTest.pump(until: { Self.texts(view).contains("Row 0") })
            GtkTest.pump()
            let model = UnsafeMutableRawPointer(gtk_list_view_get_model(OpaquePointer(view)))!
            let (handler, itemsChanged) = GtkTest.count("items-changed", of: model)
            defer { handler.cancel() }
            let (made, bound, unbound) = (rows.made, rows.bound, rows.unbound)

            list.replaceAll(with: (0..<10_000).map { Observable("Reloaded \($0)") })
            let reboundAtOnce = rows.bound - bound
            XCTAssertGreaterThan(reboundAtOnce, 0, "the first rows show their new elements at once")
            XCTAssertTrue(GtkTest.pump(until: { Self.texts(view).allSatisfy { $0.hasPrefix("Reloaded") } }),
                          "every row in view shows its new element: \(Self.texts(view).prefix(3))")
            GtkTest.pump()
            // GTK binds and measures every row it keeps after each change it
            // is told of; a rewrite in place tells it none.
            XCTAssertEqual(itemsChanged(), 0, "GTK keeps its items and rows")
            XCTAssertEqual(rows.made, made, "no row made")
            XCTAssertLessThan(rows.bound - bound, 300, "the rows GTK keeps bound again, once each")
            XCTAssertEqual(rows.unbound - unbound, rows.bound - bound, "each row's bindings to its old element ended")
            XCTAssertEqual(g_list_model_get_n_items(OpaquePointer(model)), 10_000)

            // The rows follow the new elements, not the old.
            list[0].value = "Reloaded first"
            old[0].value = "Old again"
            GtkTest.pump(until: { Self.texts(view).first != "Reloaded 0" })
            GtkTest.pump()
            XCTAssertEqual(Self.texts(view).first, "Reloaded first")

            // A rewrite right after a change GTK was told of (whose last row
            // GTK unbound and may bind again to the same item) reaches that
            // row too.
            list.insert(Observable("New"), at: 0)
            list.replaceAll(with: (0...10_000).map { Observable("Again \($0)") })
            XCTAssertTrue(GtkTest.pump(until: { Self.texts(view).first == "Again 0" }), "\(Self.texts(view).prefix(3))")
            XCTAssertTrue(Self.texts(view).allSatisfy { $0.hasPrefix("Again") },
                          "\(Self.texts(view).filter { !$0.hasPrefix("Again") }.prefix(3))")
        }
    }

    func testARewriteWhileTheViewIsHiddenReachesItsRowsOnceShown() throws {
        try MainActor.assumeIsolated {
            let list = ObservableList((0..<10_000).map { Observable("Row \($0)") })
            let rows = Rows()
            let (window, view, token) = try Self.show(list, rows: rows)
            defer { token.cancel(); GtkTest.destroy(window) }
            GtkTest.pump(until: { Self.texts(view).contains("Row 0") })

            // Shown, the shares come with the view's frames; hidden, it has
            // none, and they come as the main loop turns.
            list.replaceAll(with: (0..<10_000).map { Observable("Reloaded \($0)") })
            gtk_widget_set_visible(view, TWB_FALSE)
            list.replaceAll(with: (0..<10_000).map { Observable("Again \($0)") })
            GtkTest.pump()
            gtk_widget_set_visible(view, TWB_TRUE)
            XCTAssertTrue(GtkTest.pump(until: { Self.texts(view).first == "Again 0" }), "\(Self.texts(view).prefix(3))")
            XCTAssertTrue(Self.texts(view).allSatisfy { $0.hasPrefix("Again") },
                          "\(Self.texts(view).filter { !$0.hasPrefix("Again") }.prefix(3))")
        }
    }

    func testAChangeWhileARewriteIsBeingToldLandsWhereItBelongs() throws {
        try MainActor.assumeIsolated {
            let list = ObservableList((0..<1_000).map { Observable("Row \($0)") })
            let rows = Rows()
            let (window, view, token) = try Self.show(list, rows: rows)
            defer { token.cancel(); GtkTest.destroy(window) }
            GtkTest.pump(until: { Self.texts(view).contains("Row 0") })
            let model = gtk_list_view_get_model(OpaquePointer(view))!

            list.replaceAll(with: (0..<1_000).map { Observable("Reloaded \($0)") })
            list.insert(Observable("First"), at: 0)
            _ = list.remove(at: 1_000)
            XCTAssertEqual(g_list_model_get_n_items(model), 1_000, "what was pending is told before the next change")
            XCTAssertTrue(GtkTest.pump(until: { Array(Self.texts(view).prefix(2)) == ["First", "Reloaded 0"] }),
                          "\(Self.texts(view).prefix(2))")
            XCTAssertTrue(Self.texts(view).dropFirst().allSatisfy { $0.hasPrefix("Reloaded") })
        }
    }

    func testElementsAddedAtTheEndAllArrive() throws {
        try MainActor.assumeIsolated {
            let list = ObservableList<Observable<String>>([])
            let rows = Rows()
            let (window, view, token) = try Self.show(list, rows: rows)
            defer { token.cancel(); GtkTest.destroy(window) }
            let model = gtk_list_view_get_model(OpaquePointer(view))!

            list.replaceAll(with: (0..<50_000).map { Observable("Row \($0)") })
            XCTAssertGreaterThan(g_list_model_get_n_items(model), 0, "the first rows are told at once")
            XCTAssertTrue(GtkTest.pump(until: { g_list_model_get_n_items(model) == 50_000 }),
                          "all told: \(g_list_model_get_n_items(model))")
            XCTAssertTrue(GtkTest.pump(until: { Self.texts(view).contains("Row 0") }))
            XCTAssertLessThan(rows.made, 300, "rows for the elements in view, not for 50,000")
        }
    }

    func testACancelledTokenEmptiesTheView() throws {
        try MainActor.assumeIsolated {
            let list = ObservableList(["Ada"].map { Observable($0) })
            let rows = Rows()
            let (window, view, token) = try Self.show(list, rows: rows)
            defer { GtkTest.destroy(window) }
            GtkTest.pump(until: { Self.texts(view) == ["Ada"] })
            token.cancel()
            XCTAssertNil(gtk_list_view_get_model(OpaquePointer(view)))
            list.append(Observable("Grace"))  // reaches nothing, breaks nothing
            XCTAssertEqual(rows.unbound, rows.bound)
        }
    }

    func testDestroyingTheViewEndsEveryRowsBindings() throws {
        try MainActor.assumeIsolated {
            let list = ObservableList(["Ada", "Grace"].map { Observable($0) })
            let rows = Rows()
            let (window, view, token) = try Self.show(list, rows: rows)
            GtkTest.pump(until: { Self.texts(view) == ["Ada", "Grace"] })
            XCTAssertEqual(rows.bound, 2)
            GtkTest.destroy(window)
            XCTAssertEqual(rows.unbound, rows.bound, "no row binding outlives the view")
            list.append(Observable("Edsger"))  // the list lives on; nothing reaches the view
            token.cancel()
        }
    }
}
