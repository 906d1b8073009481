// The GTK cases the benchmarks time: each builds its widgets once, on the
// main actor, and returns a body doing `Ops.gtk` changes. GtkBenchmarks times
// them (wall clock, and instructions where perf counts them); gtk-instructions
// counts their instructions under valgrind's callgrind, which needs no
// hardware counter and does not move with the machine's load.

import CBenchGtk
import CGtkBench
import Foundation
import TwoWayBinding
import TwoWayBindingGtk

public enum Ops {
    public static let gtk = 1_000
}

/// One measured case: its name (without the operation count) and how to
/// build it.
public struct GtkCase {
    public let name: String
    public let make: @MainActor () throws -> (@MainActor () -> Void)
}

/// Every case, in the order the table reads them (made, not run).
public func makeGtkCases() -> [GtkCase] {
    var cases: [GtkCase] = []
    let bench = { (name: String, make: @escaping @MainActor () throws -> (@MainActor () -> Void)) in
        cases.append(GtkCase(name: name, make: make))
    }
    registerModelToWidget(bench)
    registerWidgetToModel(bench)
    registerCollections(bench)
    registerAdapters(bench)
    return cases
}

typealias Register = (String, @escaping @MainActor () throws -> (@MainActor () -> Void)) -> Void

/// Values for the spin buttons (range 0…1000, no digits) and texts for the
/// entries, so that every operation is a real change.
let numbers: [Double] = (0..<Ops.gtk).map { Double($0 % 997) }
let texts: [String] = (0..<Ops.gtk).map { "Answer number \($0)" }

/// One shown window that holds every benchmark's widgets.
@MainActor
public final class Stage {
    public static let shared = Stage()
    let box: UnsafeMutablePointer<GtkWidget>
    let window: UnsafeMutablePointer<GtkWidget>
    let cTexts: [UnsafeMutablePointer<CChar>]

    private init() {
        guard gtk_init_check() != 0 else { fatalError("GtkBenchmarks: no display (run under xvfb-run)") }
        window = gtk_window_new()
        box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)
        gtk_window_set_child(window.cast(), box)
        gtk_window_set_default_size(window.cast(), 400, 600)
        gtk_window_present(window.cast())
        cTexts = texts.map { strdup($0)! }
        bench_pump()
    }

    public func add(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        gtk_box_append(box.cast(), widget)
        bench_pump()
        return widget
    }

    /// A list view 300 pixels high, in a scrolled window, as an app shows one.
    func listView(_ view: UnsafeMutablePointer<GtkWidget> = gtk_list_view_new(nil, nil)!) -> UnsafeMutablePointer<GtkWidget> {
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(scrolled.opaque, view)
        gtk_scrolled_window_set_min_content_height(scrolled.opaque, 300)
        _ = add(scrolled)
        return view
    }

    func spinButton() -> UnsafeMutablePointer<GtkWidget> { add(bench_spin_button_new()) }
    func entry() -> UnsafeMutablePointer<GtkWidget> { add(bench_entry_new()) }
}

extension UnsafeMutablePointer {
    public func cast<T>() -> UnsafeMutablePointer<T> { UnsafeMutableRawPointer(self).assumingMemoryBound(to: T.self) }
    public var opaque: OpaquePointer { OpaquePointer(self) }
}

// MARK: - Model → widget

func registerModelToWidget(_ bench: Register) {
    bench("baseline: empty body") { { } }
    bench("model → spin button: ours (Observable → SpinButton binding)") {
        let model = Observable(0.0)
        try SpinButton.wrapping(Stage.shared.spinButton().opaque).bind(with: model)
        return { for value in numbers { model.value = value } }
    }
    bench("model → spin button: raw gtk_spin_button_set_value") {
        let spin = Stage.shared.spinButton().opaque
        return { for value in numbers { gtk_spin_button_set_value(spin, value) } }
    }
    bench("model → spin button: GBinding (typed model setter)") {
        let model = bench_model_new()
        bench_bind_model_to_widget(model, "value", Stage.shared.spinButton())
        return { for value in numbers { bench_model_set_value(model, value) } }
    }
    bench("model → entry: ours (Observable → Entry binding)") {
        let model = Observable("")
        try Entry.wrapping(Stage.shared.entry()).bind(with: model)
        return { for text in texts { model.value = text } }
    }
    bench("model → entry: raw gtk_editable_set_text") {
        let editable = Stage.shared.entry().opaque
        let cTexts = Stage.shared.cTexts
        return { for text in cTexts { gtk_editable_set_text(editable, text) } }
    }
    // What Entry.updateValue does around the set: read the old text and the
    // cursor, set the text, put the cursor back. Shows where the binding's
    // cost over the bare setter goes.
    bench("model → entry: raw set_text keeping the cursor") {
        let editable = Stage.shared.entry().opaque
        let cTexts = Stage.shared.cTexts
        return {
            for text in cTexts {
                let old = gtk_editable_get_text(editable)
                let length = g_utf8_strlen(old, -1)
                let position = gtk_editable_get_position(editable)
                gtk_editable_set_text(editable, text)
                let newLength = g_utf8_strlen(text, -1)
                gtk_editable_set_position(editable, position >= length ? -1 : gint(min(glong(position), newLength)))
            }
        }
    }
    // The GTK layer's own setter, without the binding engine around it.
    bench("model → entry: Entry.updateValue alone (no binding)") {
        let entry = try Entry.wrapping(Stage.shared.entry())
        return { for text in texts { entry.updateValue(with: text) } }
    }
    bench("model → entry: GBinding (typed model setter)") {
        let model = bench_model_new()
        bench_bind_model_to_widget(model, "text", Stage.shared.entry())
        let cTexts = Stage.shared.cTexts
        return { for text in cTexts { bench_model_set_text(model, text) } }
    }
    // GBinding both ways, as ours binds: it listens to the entry's
    // notifications too, which then all go through GObject's signal.
    bench("model → entry: two-way GBinding (typed model setter)") {
        let model = bench_model_new()
        bench_bind_both_ways(model, "text", Stage.shared.entry())
        let cTexts = Stage.shared.cTexts
        return { for text in cTexts { bench_model_set_text(model, text) } }
    }
}

// MARK: - Widget → model

func registerWidgetToModel(_ bench: Register) {
    bench("spin button → model: ours (binding)") {
        let model = Observable(0.0)
        let spin = Stage.shared.spinButton()
        try SpinButton.wrapping(spin.opaque).bind(with: model)
        return {
            for value in numbers { gtk_spin_button_set_value(spin.opaque, value) }
            precondition(model.value == numbers.last!)
        }
    }
    bench("spin button → model: bare value-changed handler") {
        let spin = Stage.shared.spinButton()
        bench_connect_bare_spin(spin.opaque)
        return {
            for value in numbers { gtk_spin_button_set_value(spin.opaque, value) }
            precondition(bench_bare_last_value() == numbers.last!)
        }
    }
    bench("spin button → model: GBinding") {
        let model = bench_model_new()
        let spin = Stage.shared.spinButton()
        bench_bind_widget_to_model(spin, "value", model)
        return {
            for value in numbers { gtk_spin_button_set_value(spin.opaque, value) }
            precondition(bench_model_get_value(model) == numbers.last!)
        }
    }
    bench("entry → model: ours (binding)") {
        let model = Observable("")
        let entry = Stage.shared.entry()
        try Entry.wrapping(entry).bind(with: model)
        let cTexts = Stage.shared.cTexts
        return {
            for text in cTexts { gtk_editable_set_text(entry.opaque, text) }
            precondition(model.value == texts.last!)
        }
    }
    bench("entry → model: bare notify::text handler") {
        let entry = Stage.shared.entry()
        bench_connect_bare_entry(entry.opaque)
        let cTexts = Stage.shared.cTexts
        return {
            for text in cTexts { gtk_editable_set_text(entry.opaque, text) }
            precondition(bench_bare_text_length() == texts.last!.utf8.count)
        }
    }
    bench("entry → model: GBinding") {
        let model = bench_model_new()
        let entry = Stage.shared.entry()
        bench_bind_widget_to_model(entry, "text", model)
        let cTexts = Stage.shared.cTexts
        return {
            for text in cTexts { gtk_editable_set_text(entry.opaque, text) }
            precondition(String(cString: bench_model_get_text(model)) == texts.last!)
        }
    }
}

// MARK: - Collections

/// An element inserted at the top of a list shown in a GtkListView, and
/// removed again, at 100, 1,000 and 100,000 elements: the view shows the
/// top, so each change reaches rows GTK has bound (the stored-responses
/// list's case). Half the operations insert, half remove. At 1,000 the list
/// already outnumbers the rows GTK 4.8 keeps (about 200), as at 100,000.
func registerCollections(_ bench: Register) {
    for size in [100, 1_000, 100_000] {
        bench("list change at the top, \(size) items: ours (ObservableList → ListView)") {
            let list = ObservableList((0..<size).map { "Row \($0)" })
            let view = try ListView.wrapping(Stage.shared.listView())
            view.show(list, makeRow: { Label() }, bindRow: { row, text, _ in
                row.text = text
            })
            bench_pump()
            return {
                for text in texts[..<(Ops.gtk / 2)] {
                    list.insert(text, at: 0)
                    list.remove(at: 0)
                }
                precondition(list.count == size)
            }
        }
        // GTK's own list model in C: rows that show their string, and rows
        // that bind nothing (what GTK itself does for a change).
        let peers: [(String, (guint, UnsafeMutablePointer<OpaquePointer?>) -> UnsafeMutablePointer<GtkWidget>?)] = [
            ("GtkStringList in a GtkListView", { bench_string_list_view_new($0, $1) }),
            ("GtkListView alone (rows that bind nothing)", { bench_plain_list_view_new($0, $1) }),
        ]
        for (peer, makeView) in peers {
            bench("list change at the top, \(size) items: \(peer)") {
                var list: OpaquePointer?
                _ = Stage.shared.listView(makeView(guint(size), &list)!)
                bench_pump()
                let cTexts = Stage.shared.cTexts
                return {
                    for text in cTexts[..<(Ops.gtk / 2)] {
                        bench_string_list_insert_top(list, text)
                        bench_string_list_remove_top(list)
                    }
                    precondition(g_list_model_get_n_items(list) == size)
                }
            }
        }
    }
}


// MARK: - Adapters beside their peers

func registerAdapters(_ bench: Register) {
    // A radio group of four check buttons, the model cycling through them.
    let radioButtons = { @MainActor () -> [UnsafeMutablePointer<GtkWidget>] in
        let buttons = (0..<4).map { _ in Stage.shared.add(gtk_check_button_new()!) }
        for button in buttons.dropFirst() { gtk_check_button_set_group(button.cast(), buttons[0].cast()) }
        return buttons
    }
    bench("model → radio group: ours (Observable<Int?> → RadioGroup)") {
        let model = Observable<Int?>(nil)
        try RadioGroup(radioButtons()) <-> model
        return { for index in 0..<Ops.gtk { model.value = index % 4 } }
    }
    bench("model → radio group: raw gtk_check_button_set_active") {
        let buttons = radioButtons()
        return { for index in 0..<Ops.gtk { gtk_check_button_set_active(buttons[index % 4].cast(), 1) } }
    }
    // A calendar moved day by day through the model, beside GTK's own setter
    // given the same days (GDateTimes made before the measurement).
    let days: [Date] = (0..<Ops.gtk).map { Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 86_400) }
    bench("model → date picker: ours (Observable<Date?> → DatePicker)") {
        let model = Observable<Date?>(nil)
        let picker = try DatePicker.wrapping(Stage.shared.add(gtk_calendar_new()))
        picker <-> model
        return { for day in days { model.value = day } }
    }
    bench("model → date picker: raw gtk_calendar_select_day") {
        let calendar = Stage.shared.add(gtk_calendar_new()).opaque
        let dateTimes = days.map { day -> OpaquePointer in
            let parts = Calendar.current.dateComponents([.year, .month, .day], from: day)
            return g_date_time_new_local(Int32(parts.year!), Int32(parts.month!), Int32(parts.day!), 0, 0, 0)!
        }
        return { for dateTime in dateTimes { gtk_calendar_select_day(calendar, dateTime) } }
    }
    // Seed 002's getter and setter beside an Observable, on the same entry work.
    bench("model → entry: Binding(get:set:) over a struct field") {
        struct Settings { var name = "" }
        var settings = Settings()
        let binding = Binding(get: { settings.name }, set: { settings.name = $0 })
        try Entry.wrapping(Stage.shared.entry()) <-> binding
        return { for text in texts { binding.value = text } }
    }
}
