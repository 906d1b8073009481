public import CGtk
import CTwoWayBindingGtk
public import TwoWayBinding

/// A `GtkListView` showing an `ObservableList`, a row per element.
///
/// GTK makes rows only for the elements in view and reuses them as the view
/// scrolls: `makeRow` builds one row's widgets, and `bindRow` shows an element
/// in a row, binding its widgets with a bag that ends when GTK moves the row
/// to another element. Each change of the list reaches GTK as one
/// `items-changed` of the changed range, so a list of 100,000 costs what the
/// rows in view cost.
public final class ListView: Widget {
    public override class var gtkType: GType { gtk_list_view_get_type() }

    private var listView: OpaquePointer? { pointer.map(OpaquePointer.init) }
    // Each bound row's bag, by GtkListItem.
    private var rowBags: [UnsafeMutableRawPointer: ObservationBag] = [:]
    private var showing: ObservationToken?
    private var factoryHandlers: [SignalHandler] = []

    /// Shows `list`; replaces what the view showed. Ends with the token or
    /// the widget, whichever comes first.
    @discardableResult
    public func show<Element>(
        _ list: ObservableList<Element>,
        makeRow: @escaping @MainActor () -> UnsafeMutablePointer<GtkWidget>,
        bindRow: @escaping @MainActor (UnsafeMutablePointer<GtkWidget>, Element, ObservationBag) -> Void
    ) -> ObservationToken {
        stopShowing()
        guard let listView else { return ObservationToken {} }
        let source = ItemSource { [weak list] position in ElementBox(list?.elements[position]) }
        // GTK asks on the main thread; addresses cross as integers.
        let itemData: TwbListItemDataFunc = { position, data in
            let sourceAddress = UInt(bitPattern: data)
            let boxAddress = MainActor.assumeIsolated {
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
        twb_list_model_splice(model, 0, 0, guint(list.count))
        let changes = list.observeChanges { change in
            twb_list_model_splice(model, guint(change.position), guint(change.removed), guint(change.added))
        }

        let factory = gtk_signal_list_item_factory_new()!
        let factoryObject = UnsafeMutableRawPointer(factory)
        factoryHandlers = [
            SignalHandler.connectObjectSignal(factoryObject, signal: "setup") { item in
                guard let item else { return }
                gtk_list_item_set_child(OpaquePointer(item), makeRow())
            },
            SignalHandler.connectObjectSignal(factoryObject, signal: "bind") { [weak self] item in
                guard let self, let item, let row = gtk_list_item_get_child(OpaquePointer(item)),
                      let object = gtk_list_item_get_item(OpaquePointer(item)),
                      let data = twb_list_item_get_data(OpaquePointer(object)),
                      let element = Unmanaged<ElementBox<Element>>.fromOpaque(data).takeUnretainedValue().element
                else { return }
                let bag = ObservationBag()
                rowBags[item] = bag
                bindRow(row, element, bag)
            },
            SignalHandler.connectObjectSignal(factoryObject, signal: "unbind") { [weak self] item in
                guard let item else { return }
                self?.rowBags[item] = nil
            },
        ]
        // The view owns the selection model, which owns the list model.
        let selection = gtk_no_selection_new(model)
        gtk_list_view_set_model(listView, selection)
        gtk_list_view_set_factory(listView, factory)
        g_object_unref(UnsafeMutableRawPointer(selection))
        g_object_unref(factoryObject)
        let token = ObservationToken { [weak self] in
            changes.cancel()
            self?.stopShowing()
        }
        showing = token
        return token
    }

    private func stopShowing() {
        for handler in factoryHandlers { handler.disconnect() }
        factoryHandlers = []
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
