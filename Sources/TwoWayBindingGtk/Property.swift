public import CTwoWayBindingGtkShims

/// A GObject property whose values are `Value`s: the typed key that
/// `Widget.bind(_:to:)` and `Widget.bind(_:with:)` take, as
/// `g_object_bind_property` takes a name, but checked.
///
/// ```swift
/// try saveButton.bind(.sensitive, to: viewModel.isValid)
/// try label.bind(.string("tooltip-text"), to: viewModel.hint)
/// ```
public struct Property<Value: Equatable>: Sendable {
    /// The property's name, as GObject spells it (`"visible"`, `"tooltip-text"`).
    public let name: String
    let valueType: @Sendable () -> GType
    let get: @MainActor @Sendable (gpointer, String) -> Value
    let set: @MainActor @Sendable (gpointer, String, Value) -> Void
}

extension Property where Value == Bool {
    /// A `gboolean` property.
    public static func boolean(_ name: String) -> Property {
        Property(
            name: name, valueType: { twb_type_boolean() },
            get: { twb_object_get_boolean($0, $1) != 0 },
            set: { twb_object_set_boolean($0, $1, $2 ? TWB_TRUE : TWB_FALSE) }
        )
    }

    /// Whether the widget is shown.
    public static var visible: Property { boolean("visible") }
    /// Whether the widget takes input.
    public static var sensitive: Property { boolean("sensitive") }
}

extension Property where Value == Int32 {
    /// A `gint` property.
    public static func integer(_ name: String) -> Property {
        Property(
            name: name, valueType: { twb_type_int() },
            get: { twb_object_get_int($0, $1) }, set: { twb_object_set_int($0, $1, $2) }
        )
    }
}

extension Property where Value == Double {
    /// A `gdouble` property.
    public static func double(_ name: String) -> Property {
        Property(
            name: name, valueType: { twb_type_double() },
            get: { twb_object_get_double($0, $1) }, set: { twb_object_set_double($0, $1, $2) }
        )
    }
}

extension Property where Value == String {
    /// A string property; GObject's `NULL` reads as the empty string.
    public static func string(_ name: String) -> Property {
        Property(
            name: name, valueType: { twb_type_string() },
            get: { object, name in
                guard let text = twb_object_get_string(object, name) else { return "" }
                defer { g_free(text) }
                return String(cString: text)
            },
            set: { twb_object_set_string($0, $1, $2) }
        )
    }
}

/// Why a property cannot be bound.
public enum PropertyError: Error, Equatable, CustomStringConvertible {
    /// The object's class has no property of that name.
    case noSuchProperty(name: String, type: String)
    /// The property holds values of another type than the key's.
    case wrongValueType(name: String, expected: String, actual: String)
    /// The widget was destroyed.
    case widgetDestroyed(name: String)

    public var description: String {
        switch self {
        case .noSuchProperty(let name, let type):
            "a \(type) has no property \"\(name)\""
        case .wrongValueType(let name, let expected, let actual):
            "property \"\(name)\" holds a \(actual), not a \(expected)"
        case .widgetDestroyed(let name):
            "cannot bind \"\(name)\" of a destroyed widget"
        }
    }
}
