extension Observable {
    /// A two-way observable of one field of this observable's value.
    ///
    /// Setting the projection sets the field in this value (notifying this
    /// observable's observers); setting this value updates the projection when
    /// the field changed. One key path always gives the same projection, which
    /// lives as long as this observable.
    ///
    /// ```swift
    /// let draft = Observable(Person(name: "", age: 0))
    /// nameEntry.bind(with: draft.projection(\.name))
    /// ```
    public func projection<Field: Equatable>(_ keyPath: WritableKeyPath<Value, Field>) -> Observable<Field> {
        if let existing = projections[keyPath] as? Observable<Field> { return existing }
        let field = Observable<Field>(value[keyPath: keyPath])
        projections[keyPath] = field

        // This observable owns the projection; the projection refers back weakly.
        let down = observe { [weak field] whole in
            field?.value = whole[keyPath: keyPath]
        }
        let up = field.observe { [weak self] newField in
            guard let self, self.value[keyPath: keyPath] != newField else { return }
            self.value[keyPath: keyPath] = newField
        }
        attachments.append(down)
        field.attachments.append(up)
        return field
    }
}
