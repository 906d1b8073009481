public import TwoWayBinding
import CTwoWayBindingGtkShims

extension Widget {
    /// Shows `source` in the widget's `property`, one way, now and after each
    /// change, until the token ends or the widget is destroyed:
    /// `try submitButton.bind(.sensitive, to: viewModel.isValid)`.
    public func bind<Source: ObservableValue>(
        _ property: Property<Source.Value>, to source: Source
    ) throws(PropertyError) -> ObservationToken {
        let object = try checked(property)
        return push(source, into: property, of: object)
    }

    /// Sets the widget's `property` to `value` once, as `g_object_set` does
    /// but checked: `try windowTitle.set(.string("subtitle"), to: "Version 2")`.
    public func set<Value>(_ property: Property<Value>, to value: Value) throws(PropertyError) {
        let object = try checked(property)
        property.set(object, property.name, value)
    }

    /// The widget's `property` as it is now.
    public func value<Value>(of property: Property<Value>) throws(PropertyError) -> Value {
        let object = try checked(property)
        return property.get(object, property.name)
    }

    /// Writes each of the source's values into an already checked property.
    private func push<Source: ObservableValue>(
        _ source: Source, into property: Property<Source.Value>, of object: gpointer
    ) -> ObservationToken {
        source.observe(sendInitial: true) { [weak self] value in
            guard self?.pointer != nil, property.get(object, property.name) != value else { return }
            property.set(object, property.name, value)
        }
    }

    /// Keeps the widget's `property` and `observable` equal both ways, the
    /// observable's value first, until the token ends or the widget is
    /// destroyed. A change of the property (the user's, or GTK's own) reaches
    /// the observable once; an equal value is never written back, so there is
    /// no loop.
    public func bind<Value>(
        _ property: Property<Value>, with observable: Observable<Value>
    ) throws(PropertyError) -> ObservationToken {
        let object = try checked(property)
        let toWidget = push(observable, into: property, of: object)
        let fromWidget = Signal.connectKnown(object, signal: "notify::\(property.name)") { [weak observable] in
            let value = property.get(object, property.name)
            if let observable, observable.value != value { observable.value = value }
        }
        return ObservationToken {
            toWidget.cancel()
            fromWidget.cancel()
        }
    }

    /// The widget, once it is known to have `property` with the key's type.
    private func checked<Value>(_ property: Property<Value>) throws(PropertyError) -> gpointer {
        guard let pointer else { throw .widgetDestroyed(name: property.name) }
        let object = UnsafeMutableRawPointer(pointer)
        let actual = twb_property_type(object, property.name)
        guard actual != 0 else {
            throw .noSuchProperty(name: property.name, type: Self.typeName(of: object))
        }
        let expected = property.valueType()
        guard actual == expected else {
            throw .wrongValueType(
                name: property.name,
                expected: String(cString: g_type_name(expected)), actual: String(cString: g_type_name(actual))
            )
        }
        return object
    }
}
