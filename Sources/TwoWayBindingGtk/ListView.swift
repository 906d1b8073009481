public import CTwoWayBindingGtkShims
import CTwoWayBindingGtk
public import TwoWayBinding

/// A `GtkListView` showing an `ObservableList`, a row per element.
///
/// GTK makes rows only for the elements in view and reuses them as the view
/// scrolls: `makeRow` builds one row's widgets, and `bindRow` shows an element
/// in a row, binding its widgets with a bag that ends when GTK moves the row
/// to another element. Each change of the list reaches GTK as
/// `items-changed` of the changed range only, so a list of 100,000 costs
/// what the rows in view cost. Elements rewritten in place (as many put as
/// taken at a position: a list read again) keep their rows, which show the
/// new elements a few at a time, the first at once and the rest a share per
/// frame; GTK is told nothing of them, since each change it is told makes it
/// measure again every row it keeps (a few hundred). Many elements added at
/// the end reach GTK a share per frame too.
public final class ListView: Widget {
    public override class var gtkType: GType { gtk_list_view_get_type() }

    private var listView: OpaquePointer? { pointer.map(OpaquePointer.init) }
    // Each bound row's bag, by GtkListItem.
    private var rowBags: [UnsafeMutableRawPointer: ObservationToken.Bag] = [:]
    // Rows bound so far, for telling GTK of a change as fast as it makes rows.
    private var binds = 0
    // NB: GTK 4.8 unbinds and binds again every row it keeps after any
    // change to the list, even a row whose item only moved (measured: 205
    // rows for one insertion at the top). The model gives such a row the
    // same item again, so the row GTK has just unbound keeps its bag until
    // the bind that follows: for the same item it stays bound, and its
    // `bindRow` is not run again. A row whose element went is let go at
    // once; one not bound again, from a high-priority idle source.
    private var unbinding: (row: UnsafeMutableRawPointer, item: OpaquePointer?, bag: ObservationToken.Bag)?
    private var finishSource: guint = 0
    private var showing: ObservationToken?
    private var factoryHandlers: [ObservationToken] = []

    /// Shows `list`; replaces what the view showed. Ends with the token or
    /// the widget, whichever comes first.
    @discardableResult
    public func show<Element, Row: Widget>(
        _ list: ObservableList<Element>,
        makeRow: @escaping @MainActor () -> Row,
        bindRow: @escaping @MainActor (Row, Element, ObservationToken.Bag) -> Void
    ) -> ObservationToken {
        stopShowing()
        guard let listView, let widget = pointer else { return ObservationToken {} }
        // A position the list no longer has (GTK is told of changes in
        // order, so it should not ask) gives a row showing nothing.
        let source = ItemSource { [weak list] position in
            ElementBox(list.flatMap { position < $0.count ? $0[position] : nil })
        }
        // GTK asks on the main thread; addresses cross as integers.
        let itemData: TwbListItemDataFunc = { position, data in
            let sourceAddress = UInt(bitPattern: data)
            let boxAddress = runOnMainThread {
                let source = Unmanaged<ItemSource>.fromOpaque(UnsafeRawPointer(bitPattern: sourceAddress)!)
                    .takeUnretainedValue()
                return UInt(bitPattern: Unmanaged.passRetained(source.box(Int(position))).toOpaque())
            }
            return UnsafeMutableRawPointer(bitPattern: boxAddress)
        }
        let model = twb_list_model_new(
            itemData, { Unmanaged<AnyObject>.fromOpaque($0!).release() },
            Unmanaged.passRetained(source).toOpaque(), { Unmanaged<ItemSource>.fromOpaque($0!).release() }
        )!
        // Shows in a row the element its item carries.
        let bindItem: @MainActor (ListView, UnsafeMutableRawPointer, gpointer?) -> Void = { view, item, object in
            guard let child = gtk_list_item_get_child(OpaquePointer(item)),
                  let row = try? Row.wrapping(child),
                  let object,
                  let data = twb_list_item_get_data(OpaquePointer(object)),
                  let element = Unmanaged<ElementBox<Element>>.fromOpaque(data).takeUnretainedValue().element
            else { return }
            let bag = ObservationToken.Bag()
            view.rowBags[item] = bag
            bindRow(row, element, bag)
        }
        let refresh = ChunkedRefresh(model, view: widget, bindCount: { [weak self] in self?.binds ?? 0 }, boundPositions: { [weak self] in
            (self?.rowBags.keys).map { $0.map { Int(gtk_list_item_get_position(OpaquePointer($0))) } } ?? []
        }, rebind: { [weak self] range in
            guard let self else { return }
            // A row unbound and kept for its item would come back with the
            // old element.
            finishUnbinding()
            let rows = rowBags.filter { range.contains(Int(gtk_list_item_get_position(OpaquePointer($0.key)))) }
            for (item, bag) in rows {
                bag.cancelAll()
                rowBags[item] = nil
                bindItem(self, item, gtk_list_item_get_item(OpaquePointer(item)))
            }
        })

        let factory = gtk_signal_list_item_factory_new()!
        let factoryObject = UnsafeMutableRawPointer(factory)
        factoryHandlers = [
            Signal.connectObjectSignal(factoryObject, signal: "setup") { item in
                guard let item, let row = makeRow().pointer else { return }
                gtk_list_item_set_child(OpaquePointer(item), row)
            },
            Signal.connectObjectSignal(factoryObject, signal: "bind") { [weak self] item in
                self?.binds += 1
                guard let self, let item else { return }
                let object = gtk_list_item_get_item(OpaquePointer(item))
                if let kept = unbinding, kept.row == item {
                    unbinding = nil
                    if let object, kept.item == OpaquePointer(object) {
                        rowBags[item] = kept.bag
                        return
                    }
                    kept.bag.cancelAll()
                } else {
                    finishUnbinding()
                }
                bindItem(self, item, object)
            },
            Signal.connectObjectSignal(factoryObject, signal: "unbind") { [weak self] item in
                guard let self, let item else { return }
                finishUnbinding()
                guard let bag = rowBags.removeValue(forKey: item) else { return }
                // A row whose element went is let go at once: its item will
                // not be given again.
                guard let object = gtk_list_item_get_item(OpaquePointer(item)),
                      twb_list_item_is_live(OpaquePointer(object)) != 0
                else { return bag.cancelAll() }
                unbinding = (item, OpaquePointer(object), bag)
                scheduleFinishUnbinding()
            },
        ]
        // The view owns the selection model, which owns the list model.
        let selection = gtk_no_selection_new(model)
        gtk_list_view_set_model(listView, selection)
        gtk_list_view_set_factory(listView, factory)
        g_object_unref(UnsafeMutableRawPointer(selection))
        g_object_unref(factoryObject)
        // Told once the view has its factory, so that the first rows are
        // made a share at a time too.
        refresh.apply(position: 0, removed: 0, added: list.count)
        let changes = list.observeChanges { change in
            refresh.apply(position: change.position, removed: change.removed, added: change.added)
        }
        let token = ObservationToken { [weak self] in
            changes.cancel()
            refresh.cancel()
            self?.stopShowing()
        }
        showing = token
        return token
    }

    /// Lets go of the row GTK unbound last, if no bind kept it.
    private func finishUnbinding() {
        unbinding?.bag.cancelAll()
        unbinding = nil
    }

    private func scheduleFinishUnbinding() {
        guard finishSource == 0 else { return }
        finishSource = addIdle(priority: G_PRIORITY_HIGH) { [weak self] in
            self?.finishSource = 0
            self?.finishUnbinding()
            return false
        }
    }

    private func stopShowing() {
        for handler in factoryHandlers { handler.cancel() }
        factoryHandlers = []
        finishUnbinding()
        if finishSource != 0 { g_source_remove(finishSource) }
        finishSource = 0
        rowBags = [:]
        if let listView, !isBeingDestroyed {
            gtk_list_view_set_model(listView, nil)
            gtk_list_view_set_factory(listView, nil)
        }
    }

    // NB: GTK emits destroy after the list view has dropped its item
    // manager; setting a model or factory then is a critical warning.
    private var isBeingDestroyed = false

    override func widgetWillDestroy() {
        isBeingDestroyed = true
        showing?.cancel()
        showing = nil
        super.widgetWillDestroy()
    }
}

/// Tells GTK of a list's changes so that no frame waits on a large one:
/// what costs time is the rows bound (GTK keeps a few hundred around the
/// view), so a change goes `chunk` bound rows at a time. Elements removed or
/// added before the end are told at once, so that every position after them
/// is right from the start. Elements rewritten in place are not told at all
/// (GTK 4.8 binds and measures again every row it keeps after any change it
/// is told): their items take the new elements and their rows are bound
/// again, a stretch at a time, each holding at most `chunk` bound rows (a
/// stretch holding none goes whole). Elements added at the end go `chunk` at
/// a time until GTK binds no row for them, and then all at once. The first
/// share goes at once, the rest a few milliseconds' worth per frame, before
/// GTK lays the frame out: what costs a frame is the rows it must measure,
/// and the main loop turns many times between frames. A new change first
/// finishes whatever is still pending.
@MainActor
private final class ChunkedRefresh {
    /// Bound rows told at a time, and how long a frame may spend telling
    /// (microseconds): the rows told must then be measured and drawn in the
    /// same 16 ms frame.
    static let chunk = 8
    static let budget: gint64 = 2000
    private let model: OpaquePointer
    private let view: UnsafeMutablePointer<GtkWidget>
    private let bindCount: () -> Int
    private let boundPositions: () -> [Int]
    private let rebind: (Range<Int>) -> Void
    private enum Pending {
        /// Elements rewritten in place whose rows do not show them yet.
        case rewritten(Range<Int>)
        /// Elements at the end that GTK does not know of yet.
        case appended(Int)
    }
    private var pending: [Pending] = []
    /// Whether GTK bound no row for the elements last added at the end.
    private var appendsBindNothing = false
    private enum Scheduled { case none, tick(guint), idle(guint) }
    private var scheduled = Scheduled.none

    /// `rebind` shows again, in the rows bound to them, the elements in a
    /// range its items were given anew.
    init(
        _ model: OpaquePointer, view: UnsafeMutablePointer<GtkWidget>, bindCount: @escaping () -> Int,
        boundPositions: @escaping () -> [Int], rebind: @escaping (Range<Int>) -> Void
    ) {
        self.model = model
        self.view = view
        self.bindCount = bindCount
        self.boundPositions = boundPositions
        self.rebind = rebind
    }

    func apply(position: Int, removed: Int, added: Int) {
        // Told in order: a later change's positions count on the earlier ones.
        flush()
        let atEnd = position + removed == Int(g_list_model_get_n_items(model))
        let rewritten = min(removed, added)
        if removed > added || (added > removed && !atEnd) {
            splice(position + rewritten, removed: removed - rewritten, added: added - rewritten)
        } else if added > removed {
            pending.append(.appended(added - removed))
            appendsBindNothing = false
        }
        if rewritten > 0 { pending.insert(.rewritten(position ..< position + rewritten), at: 0) }
        if step() { scheduleNext() }
    }

    func cancel() {
        pending = []
        unschedule()
    }

    /// One frame's share: shares until `budget` has passed; whether more are
    /// left.
    private func step() -> Bool {
        let deadline = g_get_monotonic_time() + Self.budget
        while !pending.isEmpty {
            tell(all: false)
            if g_get_monotonic_time() >= deadline { break }
        }
        return !pending.isEmpty
    }

    /// Tells GTK of the first pending change: one share of it, or `all`.
    private func tell(all: Bool) {
        guard let first = pending.first else { return }
        switch first {
        case .rewritten(let range):
            var count = range.count
            if !all {
                let bound = boundPositions().filter(range.contains).sorted()
                if bound.count > Self.chunk { count = bound[Self.chunk - 1] + 1 - range.lowerBound }
            }
            twb_list_model_refresh(model, guint(range.lowerBound), guint(count))
            rebind(range.lowerBound ..< range.lowerBound + count)
            pending[0] = .rewritten(range.lowerBound + count ..< range.upperBound)
            if count == range.count { pending.removeFirst() }
        case .appended(let remaining):
            let count = all || appendsBindNothing ? remaining : min(remaining, Self.chunk)
            let binds = bindCount()
            splice(Int(g_list_model_get_n_items(model)), removed: 0, added: count)
            appendsBindNothing = bindCount() == binds
            pending[0] = .appended(remaining - count)
            if count == remaining { pending.removeFirst() }
        }
    }

    private func flush() {
        while !pending.isEmpty { tell(all: true) }
        unschedule()
    }

    private func unschedule() {
        switch scheduled {
        case .none: break
        case .tick(let id): gtk_widget_remove_tick_callback(view, id)
        case .idle(let id): g_source_remove(id)
        }
        scheduled = .none
    }

    private func splice(_ position: Int, removed: Int, added: Int) {
        twb_list_model_splice(model, guint(position), guint(removed), guint(added))
    }

    /// The next share goes in the view's next frame; a view not shown has
    /// no frames, and takes it from an idle source.
    private func scheduleNext() {
        guard case .none = scheduled else { return }
        // Either keeps the refresh alive until it is removed.
        let next = { @MainActor [self] () -> Bool in
            guard step() else {
                scheduled = .none
                return false
            }
            return true
        }
        scheduled = gtk_widget_get_mapped(view) != 0
            ? .tick(addTick(to: view, next)) : .idle(addIdle(priority: G_PRIORITY_DEFAULT_IDLE, next))
    }
}

/// Runs `body` from a GLib idle source at `priority` until it returns
/// false or the source is removed; the source holds `body`.
@MainActor
func addIdle(priority: Int32, _ body: @escaping @MainActor () -> Bool) -> guint {
    g_idle_add_full(priority, { RepeatedBody.run($0) }, RepeatedBody.retained(body), RepeatedBody.release)
}

/// Runs `body` in each frame of `widget`, before GTK lays it out, until it
/// returns false or the callback is removed; the callback holds `body`.
@MainActor
func addTick(to widget: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor () -> Bool) -> guint {
    gtk_widget_add_tick_callback(widget, { _, _, data in RepeatedBody.run(data) }, RepeatedBody.retained(body), RepeatedBody.release)
}

/// A body GLib calls again while it returns true, carried as user data.
private final class RepeatedBody {
    let body: @MainActor () -> Bool
    init(_ body: @escaping @MainActor () -> Bool) { self.body = body }

    static func retained(_ body: @escaping @MainActor () -> Bool) -> gpointer {
        Unmanaged.passRetained(RepeatedBody(body)).toOpaque()
    }

    static let release: GDestroyNotify = { Unmanaged<RepeatedBody>.fromOpaque($0!).release() }

    /// Runs the body at `data`: whether GLib calls it again. Addresses cross as integers.
    static func run(_ data: gpointer?) -> gboolean {
        let address = UInt(bitPattern: data)
        return runOnMainThread {
            Unmanaged<RepeatedBody>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)
                .takeUnretainedValue().body() ? TWB_TRUE : TWB_FALSE
        }
    }
}


/// Gives each item GTK asks for its element, boxed for the item to carry.
@MainActor
private final class ItemSource {
    let box: (Int) -> AnyObject
    init(_ box: @escaping (Int) -> AnyObject) { self.box = box }
}

private final class ElementBox<Element> {
    let element: Element?
    init(_ element: Element?) { self.element = element }
}
