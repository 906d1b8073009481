public import CTwoWayBindingGtkShims

/// A `GtkBuilder` with typed lookups that fail with the id and the type.
///
/// ```swift
/// let builder = try Builder(resource: "/io/github/surveyform/ui/form-window.ui")
/// let nameEntry = try builder.object("nameEntry", as: Entry.self)
/// ```
///
/// The builder holds a reference on every object it made: let it go once the
/// lookups are done, or widgets (and their bindings) outlive their window.
@MainActor
public final class Builder {
    /// The GtkBuilder (`GtkBuilder *`), owned by this object.
    public let pointer: OpaquePointer

    /// Loads the objects described by `xml`.
    public convenience init(string xml: String) throws(BuilderError) {
        try self.init(source: "string") { builder, error in
            gtk_builder_add_from_string(builder, xml, -1, &error)
        }
    }

    /// Loads the objects described by the file at `path`.
    public convenience init(file path: String) throws(BuilderError) {
        try self.init(source: path) { builder, error in
            gtk_builder_add_from_file(builder, path, &error)
        }
    }

    /// Loads the objects described by the GResource at `path`.
    public convenience init(resource path: String) throws(BuilderError) {
        try self.init(source: "resource://\(path)") { builder, error in
            gtk_builder_add_from_resource(builder, path, &error)
        }
    }

    private init(
        source: String,
        load: (OpaquePointer, inout UnsafeMutablePointer<GError>?) -> gboolean
    ) throws(BuilderError) {
        pointer = gtk_builder_new()
        var error: UnsafeMutablePointer<GError>?
        if load(pointer, &error) == 0 {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            // Fully initialized, so deinit releases the builder.
            throw .cannotLoad(source: source, message: message)
        }
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }

    /// The wrapper of the widget with `id`, which must be a `type`.
    public func object<W: Widget>(_ id: String, as type: W.Type) throws(BuilderError) -> W {
        let object = try object(id, expected: String(cString: g_type_name(W.gtkType)))
        guard W.canWrap(object) else {
            throw .wrongType(id: id, expected: String(cString: g_type_name(W.gtkType)), actual: Widget.typeName(of: object))
        }
        do {
            return try W.wrapping(raw: object)
        } catch {
            throw .cannotWrap(id: id, reason: error)
        }
    }

    /// The object with `id` (an adjustment, a list model…), which must be of `type`. Not retained.
    public func object(_ id: String, ofType type: GType) throws(BuilderError) -> UnsafeMutablePointer<GObject> {
        let object = try object(id, expected: String(cString: g_type_name(type)))
        guard twb_instance_is_a(object, type) != 0 else {
            throw .wrongType(id: id, expected: String(cString: g_type_name(type)), actual: Widget.typeName(of: object))
        }
        return object.assumingMemoryBound(to: GObject.self)
    }

    private func object(_ id: String, expected: String) throws(BuilderError) -> UnsafeMutableRawPointer {
        guard let object = gtk_builder_get_object(pointer, id) else {
            throw .missingObject(id: id, expected: expected)
        }
        return UnsafeMutableRawPointer(object)
    }
}
