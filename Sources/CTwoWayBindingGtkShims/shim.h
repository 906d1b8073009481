#pragma once
// Helpers for what Swift cannot import from GTK: cast and type-check macros,
// g_signal_connect (a macro), TRUE/FALSE, variadic setters, gettext, and
// libdispatch's main-queue hooks.
#include <gtk/gtk.h>
#include <glib-unix.h>
// For the in-memory GSettings backend that tests keep settings in.
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>
#include <libintl.h>
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

static const gboolean TWB_TRUE = TRUE;
static const gboolean TWB_FALSE = FALSE;
static const gint TWB_INPUT_ERROR = GTK_INPUT_ERROR;
static const guint TWB_INVALID_LIST_POSITION = GTK_INVALID_LIST_POSITION;

// MARK: - Types

static inline gboolean twb_instance_is_a(gconstpointer instance, GType type) {
    return instance != NULL && G_TYPE_CHECK_INSTANCE_TYPE(instance, type);
}

static inline GType twb_type_of(gconstpointer instance) {
    return G_OBJECT_TYPE(instance);
}

// MARK: - Signals

static inline gulong twb_signal_connect(gpointer instance, const gchar *signal, GCallback handler,
                                       gpointer data, GClosureNotify destroy, gboolean swapped) {
    return g_signal_connect_data(instance, signal, handler, data, destroy,
                                 swapped ? G_CONNECT_SWAPPED : (GConnectFlags)0);
}

// What a Swift handler must match before it is connected: whether `instance`
// has the (detailed) signal at all, its return type, and how many arguments
// it passes with the fundamental type of the first. FALSE for no such signal
// (or a notify:: of no such property).
static inline gboolean twb_signal_shape(gpointer instance, const gchar *signal, GType *return_type,
                                        guint *n_params, GType *first_param) {
    guint id = 0;
    GQuark detail = 0;
    if (!g_signal_parse_name(signal, G_OBJECT_TYPE(instance), &id, &detail, FALSE)) return FALSE;
    // GLib connects notify:: of any name and never emits it: a typo would go unheard.
    const gchar *property = strstr(signal, "::");
    if (property != NULL && id == g_signal_lookup("notify", G_TYPE_OBJECT) &&
        g_object_class_find_property(G_OBJECT_GET_CLASS(instance), property + 2) == NULL) return FALSE;
    GSignalQuery query;
    g_signal_query(id, &query);
    *return_type = G_TYPE_FUNDAMENTAL(query.return_type & ~G_SIGNAL_TYPE_STATIC_SCOPE);
    *n_params = query.n_params;
    *first_param = query.n_params > 0 ? G_TYPE_FUNDAMENTAL(query.param_types[0] & ~G_SIGNAL_TYPE_STATIC_SCOPE)
                                      : G_TYPE_INVALID;
    return TRUE;
}

// Emits a signal that takes no arguments and returns nothing, as input would
// (g_signal_emit_by_name is variadic). For tests.
static inline void twb_signal_emit(gpointer instance, const gchar *signal) {
    g_signal_emit_by_name(instance, signal);
}

// A range's move-slider, as an arrow key pressed on it emits it. For tests.
static inline void twb_range_move_slider(gpointer range, GtkScrollType scroll) {
    g_signal_emit_by_name(range, "move-slider", scroll);
}

// Emits a signal that takes one position (a list view's activate), as a
// click or Enter on that row would.
static inline void twb_emit_position(gpointer instance, const gchar *signal, guint position) {
    g_signal_emit_by_name(instance, signal, position);
}

// Emits a native dialog's response, as the user's answer would. For tests.
static inline void twb_emit_response(gpointer dialog, gint response) {
    g_signal_emit_by_name(dialog, "response", response);
}

// Emits a key controller's key-pressed, as a key press would; returns
// whether a handler took the key. For tests.
static inline gboolean twb_emit_key_pressed(gpointer controller, guint keyval, GdkModifierType state) {
    gboolean handled = FALSE;
    g_signal_emit_by_name(controller, "key-pressed", keyval, 0u, state, &handled);
    return handled;
}

// Emits a drop target's drop with the files at `paths` (one per line), as
// a file manager's drop would arrive; returns whether a handler took it.
// For tests.
static inline gboolean twb_emit_drop_files(gpointer target, const char *paths) {
    gchar **lines = g_strsplit(paths, "\n", -1);
    GSList *files = NULL;
    for (gchar **line = lines; *line != NULL; line++) {
        if (**line != '\0') files = g_slist_prepend(files, g_file_new_for_path(*line));
    }
    files = g_slist_reverse(files);
    GdkFileList *list = gdk_file_list_new_from_list(files);
    g_slist_free_full(files, g_object_unref);
    g_strfreev(lines);
    GValue value = G_VALUE_INIT;
    g_value_init(&value, GDK_TYPE_FILE_LIST);
    g_value_take_boxed(&value, list);
    gboolean taken = FALSE;
    g_signal_emit_by_name(target, "drop", &value, 0.0, 0.0, &taken);
    g_value_unset(&value);
    return taken;
}

// Emits a signal shaped (instance, double, double), such as a drag
// gesture's drag-begin, as the pointer would. For tests.
static inline void twb_emit_point(gpointer instance, const char *signal, double x, double y) {
    g_signal_emit_by_name(instance, signal, x, y);
}

// A check button a screen reader hears as a radio button: the accessible
// role is fixed when a widget is made (g_object_new is variadic).
static inline GtkWidget *twb_check_button_new_radio(const char *label) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_CHECK_BUTTON, "label", label,
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_RADIO, NULL));
}

// A toggle button a screen reader hears as a radio button (a star of a
// rating, one of a row): the role is fixed when a widget is made.
static inline GtkWidget *twb_toggle_button_new_radio(void) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_TOGGLE_BUTTON, "accessible-role", GTK_ACCESSIBLE_ROLE_RADIO, NULL));
}

// A drawing area a screen reader hears as a picture: the role is fixed
// when a widget is made.
static inline GtkWidget *twb_drawing_area_new_image(void) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_DRAWING_AREA, "accessible-role", GTK_ACCESSIBLE_ROLE_IMG, NULL));
}

// The checked state a screen reader hears (gtk_accessible_update_state is variadic).
static inline void twb_accessible_set_checked(GtkAccessible *accessible, gboolean checked) {
    gtk_accessible_update_state(accessible, GTK_ACCESSIBLE_STATE_CHECKED,
                                checked ? GTK_ACCESSIBLE_TRISTATE_TRUE : GTK_ACCESSIBLE_TRISTATE_FALSE, -1);
}

// For tests under GTK_A11Y=test: whether the checked state is `checked`.
static inline gboolean twb_test_accessible_is_checked(GtkAccessible *accessible, gboolean checked) {
    if (!gtk_test_accessible_has_state(accessible, GTK_ACCESSIBLE_STATE_CHECKED))
        return !checked;
    char *mismatch = gtk_test_accessible_check_state(accessible, GTK_ACCESSIBLE_STATE_CHECKED,
                                                     checked ? GTK_ACCESSIBLE_TRISTATE_TRUE : GTK_ACCESSIBLE_TRISTATE_FALSE);
    gboolean matches = mismatch == NULL;
    g_free(mismatch);
    return matches;
}

// MARK: - Properties

// The value type of the property `name` of `object`, or G_TYPE_INVALID when
// it has none; g_object_get and g_object_set are variadic, hence the typed pairs.
static inline GType twb_property_type(gpointer object, const char *name) {
    GParamSpec *spec = g_object_class_find_property(G_OBJECT_GET_CLASS(object), name);
    return spec ? G_PARAM_SPEC_VALUE_TYPE(spec) : G_TYPE_INVALID;
}
static inline GType twb_type_none(void) { return G_TYPE_NONE; }
static inline GType twb_type_enum(void) { return G_TYPE_ENUM; }
static inline GType twb_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType twb_type_int(void) { return G_TYPE_INT; }
static inline GType twb_type_double(void) { return G_TYPE_DOUBLE; }
static inline GType twb_type_string(void) { return G_TYPE_STRING; }

static inline gboolean twb_object_get_boolean(gpointer object, const char *name) {
    gboolean value = FALSE;
    g_object_get(object, name, &value, NULL);
    return value;
}
static inline void twb_object_set_boolean(gpointer object, const char *name, gboolean value) {
    g_object_set(object, name, value, NULL);
}
static inline gint twb_object_get_int(gpointer object, const char *name) {
    gint value = 0;
    g_object_get(object, name, &value, NULL);
    return value;
}
static inline void twb_object_set_int(gpointer object, const char *name, gint value) {
    g_object_set(object, name, value, NULL);
}
static inline double twb_object_get_double(gpointer object, const char *name) {
    double value = 0;
    g_object_get(object, name, &value, NULL);
    return value;
}
static inline void twb_object_set_double(gpointer object, const char *name, double value) {
    g_object_set(object, name, value, NULL);
}
// A copy the caller frees with g_free, or NULL.
static inline char *twb_object_get_string(gpointer object, const char *name) {
    char *value = NULL;
    g_object_get(object, name, &value, NULL);
    return value;
}
static inline void twb_object_set_string(gpointer object, const char *name, const char *value) {
    g_object_set(object, name, value, NULL);
}

// MARK: - Accessibility

// gtk_accessible_update_state/property are variadic.
static inline void twb_accessible_set_invalid(GtkAccessible *accessible, gboolean invalid) {
    if (invalid)
        gtk_accessible_update_state(accessible, GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE, -1);
    else
        gtk_accessible_reset_state(accessible, GTK_ACCESSIBLE_STATE_INVALID);
}

static inline void twb_accessible_set_description(GtkAccessible *accessible, const char *description) {
    if (description)
        gtk_accessible_update_property(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
    else
        gtk_accessible_reset_property(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

static inline void twb_accessible_set_label(GtkAccessible *accessible, const char *label) {
    gtk_accessible_update_property(accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static inline void twb_accessible_set_required(GtkAccessible *accessible, gboolean required) {
    gtk_accessible_update_property(accessible, GTK_ACCESSIBLE_PROPERTY_REQUIRED, required, -1);
}

// For tests under GTK_A11Y=test: whether the invalid state is set to true.
static inline gboolean twb_test_accessible_is_invalid(GtkAccessible *accessible) {
    if (!gtk_test_accessible_has_state(accessible, GTK_ACCESSIBLE_STATE_INVALID))
        return FALSE;
    char *mismatch = gtk_test_accessible_check_state(accessible, GTK_ACCESSIBLE_STATE_INVALID,
                                                     GTK_ACCESSIBLE_INVALID_TRUE);
    gboolean matches = mismatch == NULL;
    g_free(mismatch);
    return matches;
}

// For tests under GTK_A11Y=test: the description when it equals `expected`.
static inline gboolean twb_test_accessible_has_description(GtkAccessible *accessible, const char *expected) {
    if (!gtk_test_accessible_has_property(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION))
        return FALSE;
    char *mismatch = gtk_test_accessible_check_property(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, expected);
    gboolean matches = mismatch == NULL;
    g_free(mismatch);
    return matches;
}

// MARK: - Logging

// g_log is variadic.
static inline void twb_log_warning(const char *domain, const char *message) {
    g_log(domain, G_LOG_LEVEL_WARNING, "%s", message);
}

// MARK: - gettext

static inline const char *twb_gettext(const char *msgid) {
    return gettext(msgid);
}

static inline const char *twb_dgettext(const char *domain, const char *msgid) {
    return dgettext(domain, msgid);
}

static inline const char *twb_ngettext(const char *singular, const char *plural, unsigned long n) {
    return ngettext(singular, plural, n);
}

/// Makes `domain` the program's domain, with its catalogs under `directory`, in UTF-8.
static inline void twb_textdomain_init(const char *domain, const char *directory) {
    bindtextdomain(domain, directory);
    bind_textdomain_codeset(domain, "UTF-8");
    textdomain(domain);
}

// MARK: - libdispatch main queue
// The hooks CoreFoundation uses to run the main queue from its run loop. Weak,
// so a libdispatch without them leaves the pointers NULL instead of failing to
// link or load.

extern int _dispatch_get_main_queue_handle_4CF(void) __attribute__((weak));
extern void _dispatch_main_queue_callback_4CF(void *message) __attribute__((weak));

/// The main queue's eventfd, or -1 when libdispatch does not offer it.
static inline int twb_dispatch_main_queue_handle(void) {
    return _dispatch_get_main_queue_handle_4CF ? _dispatch_get_main_queue_handle_4CF() : -1;
}

/// Runs the blocks waiting on the main queue; FALSE when libdispatch cannot.
static inline gboolean twb_dispatch_drain_main_queue(void) {
    if (!_dispatch_main_queue_callback_4CF)
        return FALSE;
    _dispatch_main_queue_callback_4CF(NULL);
    return TRUE;
}

/// Resets the (non-blocking) eventfd so the GLib watch stops firing until
/// libdispatch writes to it again. libdispatch's own drain does not read it.
static inline void twb_eventfd_reset(int fd) {
    uint64_t count;
    ssize_t result;
    do {
        result = read(fd, &count, sizeof count);
    } while (result < 0 && errno == EINTR);
}
