public import TwoWayBinding
import CTwoWayBindingGtkShims

extension Widget {
    /// Shows `source` on this widget, now and after each change: the CSS class
    /// `error`, the accessible invalid state, the message read before the
    /// accessible description, and the message
    /// in `label`, which is visible only while there is a message. Replaces
    /// what an earlier call showed; ends with the widget.
    public func showValidation(_ source: some ObservableValue<FieldValidation>, message label: Label? = nil) {
        validationToken?.cancel()
        validationSource = source
        validationToken = source.observe(sendInitial: true) { [weak self, weak label] validation in
            self?.apply(validation)
            label?.text = validation.message ?? ""
            label?.isVisible = validation.message != nil
        }
    }

    private func apply(_ validation: FieldValidation) {
        guard let pointer else { return }
        if validation.message != nil {
            gtk_widget_add_css_class(pointer, "error")
        } else {
            gtk_widget_remove_css_class(pointer, "error")
        }
        for part in accessibleParts {
            twb_accessible_set_invalid(OpaquePointer(part), validation.message == nil ? TWB_FALSE : TWB_TRUE)
        }
        validationMessage = validation.message
        describeForScreenReader()
    }
}
