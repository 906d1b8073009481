import CTwoWayBindingAdw
public import TwoWayBinding
public import TwoWayBindingGtk

/// A libadwaita preferences group (`AdwPreferencesGroup`): rows in a boxed
/// list under a title and a description.
@MainActor
public final class PreferencesGroup {
    /// The group's wrapper, to lay out.
    public let widget: Widget
    private var group: UnsafeMutablePointer<AdwPreferencesGroup>? { widget.pointer?.cast(to: AdwPreferencesGroup.self) }

    /// A group titled `title`, with `description` beneath it (none if empty).
    public init(title: String = "", description: String = "") {
        widget = try! Widget.wrapping(adw_preferences_group_new()!)
        if !title.isEmpty { self.title = title }
        if !description.isEmpty { self.description = description }
    }

    /// The title above the rows; none if empty.
    public var title: String {
        get { group.flatMap { adw_preferences_group_get_title($0) }.map { String(cString: $0) } ?? "" }
        set { group.map { adw_preferences_group_set_title($0, newValue) } }
    }

    /// The text under the title; none if empty.
    public var description: String {
        get { group.flatMap { adw_preferences_group_get_description($0) }.map { String(cString: $0) } ?? "" }
        set { group.map { adw_preferences_group_set_description($0, newValue.isEmpty ? nil : newValue) } }
    }

    /// The group `widget` is (one a builder made); any other widget is refused.
    public init(_ widget: Widget) throws(WidgetError) {
        guard let pointer = widget.pointer else { throw .destroyed(expected: "AdwPreferencesGroup") }
        guard twb_instance_is_a(UnsafeMutableRawPointer(pointer), adw_preferences_group_get_type()) != 0 else {
            throw .wrongType(expected: "AdwPreferencesGroup", actual: String(cString: g_type_name(twb_type_of(UnsafeMutableRawPointer(pointer)))))
        }
        self.widget = widget
    }

    /// Adds `row` after the others.
    public func add(_ row: ActionRow) {
        add(row.widget)
    }

    /// Adds any widget after the others: a row, or a card of one's own.
    public func add(_ child: Widget) {
        if let group, let pointer = child.pointer { adw_preferences_group_add(group, pointer) }
    }

    /// Puts `widget` at the end of the group's title line (a Remove button, say).
    public func setHeaderSuffix(_ widget: Widget) {
        group.map { adw_preferences_group_set_header_suffix($0, widget.pointer) }
    }
}

/// A libadwaita action row (`AdwActionRow`): a title, a subtitle and
/// controls at its end, activated as a whole.
@MainActor
public final class ActionRow {
    /// The row's wrapper, to lay out.
    public let widget: Widget
    private var row: UnsafeMutablePointer<AdwActionRow>? { widget.pointer?.cast(to: AdwActionRow.self) }

    /// A row titled `title`, with `subtitle` beneath it (none if empty).
    /// Both are plain text, never markup: what a user typed shows as typed.
    public init(title: String, subtitle: String = "") {
        widget = try! Widget.wrapping(adw_action_row_new()!)
        guard let row else { return }
        setPlainTitle(title, of: row.cast(to: AdwPreferencesRow.self))
        if !subtitle.isEmpty { adw_action_row_set_subtitle(row, subtitle) }
    }

    /// Adds `control` at the row's end, centred on its height.
    public func addSuffix(_ control: Widget) {
        guard let row, let pointer = control.pointer else { return }
        gtk_widget_set_valign(pointer, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(row, pointer)
    }

    /// Makes the row activatable (a click, Enter or Space on it) and calls
    /// `handler` each time it is activated, until the token ends.
    public func onActivated(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        guard let row, let pointer = widget.pointer else { return ObservationToken {} }
        gtk_list_box_row_set_activatable(row.cast(to: GtkListBoxRow.self), TWB_TRUE)
        return Signal.connectKnown(pointer, signal: "activated", handler)
    }
}

/// A libadwaita expander row (`AdwExpanderRow`): a title and a subtitle
/// that open to show rows of their own beneath them, such as the login of
/// one server among several.
@MainActor
public final class ExpanderRow {
    /// The row's wrapper, to lay out.
    public let widget: Widget
    private var row: UnsafeMutablePointer<AdwExpanderRow>? { widget.pointer?.cast(to: AdwExpanderRow.self) }

    /// A closed row titled `title`, with `subtitle` beneath it (none if
    /// empty); plain text, never markup.
    public init(title: String, subtitle: String = "") {
        widget = try! Widget.wrapping(adw_expander_row_new()!)
        guard let row else { return }
        setPlainTitle(title, of: row.cast(to: AdwPreferencesRow.self))
        if !subtitle.isEmpty { adw_expander_row_set_subtitle(row, subtitle) }
    }

    /// Whether its rows show.
    public var isExpanded: Bool {
        get { row.map { adw_expander_row_get_expanded($0) != 0 } ?? false }
        set { row.map { adw_expander_row_set_expanded($0, newValue ? TWB_TRUE : TWB_FALSE) } }
    }

    /// Adds `child` (a row) beneath the others it shows.
    public func add(_ child: Widget) {
        if let row, let pointer = child.pointer { adw_expander_row_add_row(row, pointer) }
    }
}

extension Entry {
    /// A libadwaita entry row (`AdwEntryRow`; `AdwPasswordEntryRow`, whose
    /// text is hidden, when `isPassword`), for a group or an expander row:
    /// its title shows over the text and names it to a screen reader.
    public static func row(title: String, isPassword: Bool = false) -> Entry {
        let made = isPassword ? adw_password_entry_row_new()! : adw_entry_row_new()!
        setPlainTitle(title, of: made.cast(to: AdwPreferencesRow.self))
        return try! Entry.wrapping(made)
    }
}

/// A libadwaita status page (`AdwStatusPage`): an icon, a title and a
/// description, for an empty list or a place with nothing yet.
@MainActor
public final class StatusPage {
    /// The page's wrapper, to lay out.
    public let widget: Widget

    /// A page showing the icon `iconName`, `title` and `description`;
    /// `compact` for one that sits among other content.
    public init(iconName: String, title: String, description: String, compact: Bool = false) {
        widget = try! Widget.wrapping(adw_status_page_new()!)
        guard let page = widget.pointer.map(OpaquePointer.init) else { return }
        adw_status_page_set_icon_name(page, iconName)
        adw_status_page_set_title(page, title)
        adw_status_page_set_description(page, description)
        if compact { widget.addStyleClass("compact") }
    }
}

/// Gives a preferences row (an action, expander or entry row) `title` as
/// plain text, never markup: what a user typed shows as typed.
@MainActor
private func setPlainTitle(_ title: String, of row: UnsafeMutablePointer<AdwPreferencesRow>) {
    adw_preferences_row_set_use_markup(row, TWB_FALSE)
    adw_preferences_row_set_title(row, title)
}
