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
/// what the rows in view cost. A change that rewrites many elements (a
/// list read again) is told a chunk of rows per main-loop turn, the first
/// chunk at once: GTK keeps a few hundred rows bound, and rebinding all of
/// them in one go would hold up a frame.
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
        guard let listView else { return ObservationToken {} }
        // While a rewrite is told in chunks, GTK may ask for a position the
        // list no longer has; its row shows nothing until its chunk comes.
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
        let refresh = ChunkedRefresh(model, bindCount: { [weak self] in self?.binds ?? 0 }, boundPositions: { [weak self] in
            (self?.rowBags.keys).map { $0.map { Int(gtk_list_item_get_position(OpaquePointer($0))) } } ?? []
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
                guard let child = gtk_list_item_get_child(OpaquePointer(item)),
                      let row = try? Row.wrapping(child),
                      let object,
                      let data = twb_list_item_get_data(OpaquePointer(object)),
                      let element = Unmanaged<ElementBox<Element>>.fromOpaque(data).takeUnretainedValue().element
                else { return }
                let bag = ObservationToken.Bag()
                rowBags[item] = bag
                bindRow(row, element, bag)
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
/// what costs GTK time is the rows it binds (a few hundred around the view),
/// so a change is told `chunk` bound rows at a time. Elements removed or
/// added before the end are told at once, so that every position after them
/// is right from the start. Elements rewritten in place go a stretch at a
/// time, each holding at most `chunk` bound rows (a stretch holding none goes
/// whole); elements added at the end go `chunk` at a time until GTK binds no
/// row for them, and then all at once. The first share is told at once, the
/// rest from an idle source, a few milliseconds' worth per main-loop turn,
/// after GTK has drawn any frame that is due. A new change first tells
/// whatever is still pending.
@MainActor
private final class ChunkedRefresh {
    /// Bound rows told at a time, and how long a main-loop turn may spend
    /// telling (microseconds): a share of a 16 ms frame.
    static let chunk = 8
    static let budget: gint64 = 4000
    private let model: OpaquePointer
    private let bindCount: () -> Int
    private let boundPositions: () -> [Int]
    private enum Pending {
        /// Elements rewritten in place that GTK has not been told of.
        case rewritten(Range<Int>)
        /// Elements at the end that GTK does not know of yet.
        case appended(Int)
    }
    private var pending: [Pending] = []
    /// Whether GTK bound no row for the elements last added at the end.
    private var appendsBindNothing = false
    private var idleSource: guint = 0

    init(_ model: OpaquePointer, bindCount: @escaping () -> Int, boundPositions: @escaping () -> [Int]) {
        self.model = model
        self.bindCount = bindCount
        self.boundPositions = boundPositions
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
        if step() { scheduleIdle() }
    }

    func cancel() {
        pending = []
        removeIdle()
    }

    /// One main-loop turn's share: shares until `budget` has passed; whether
    /// more are left.
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
            splice(range.lowerBound, removed: count, added: count)
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
        removeIdle()
    }

    private func removeIdle() {
        if idleSource != 0 { g_source_remove(idleSource) }
        idleSource = 0
    }

    private func splice(_ position: Int, removed: Int, added: Int) {
        twb_list_model_splice(model, guint(position), guint(removed), guint(added))
    }

    private func scheduleIdle() {
        guard idleSource == 0 else { return }
        // The source keeps the refresh alive until it is removed.
        idleSource = addIdle(priority: G_PRIORITY_DEFAULT_IDLE) { [self] in
            guard step() else {
                idleSource = 0
                return false
            }
            return true
        }
    }
}

/// Runs `body` from a GLib idle source at `priority` until it returns
/// false or the source is removed; the source holds `body`.
@MainActor
private func addIdle(priority: Int32, _ body: @escaping @MainActor () -> Bool) -> guint {
    let run: GSourceFunc = { data in
        let address = UInt(bitPattern: data)
        return runOnMainThread {
            Unmanaged<IdleBody>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)
                .takeUnretainedValue().body() ? TWB_TRUE : TWB_FALSE
        }
    }
    return g_idle_add_full(
        priority, run, Unmanaged.passRetained(IdleBody(body)).toOpaque(),
        { Unmanaged<IdleBody>.fromOpaque($0!).release() }
    )
}

private final class IdleBody {
    let body: @MainActor () -> Bool
    init(_ body: @escaping @MainActor () -> Bool) { self.body = body }
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
