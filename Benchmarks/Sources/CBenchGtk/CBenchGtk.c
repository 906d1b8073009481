#include "CBenchGtk.h"
#include <valgrind/callgrind.h>
#include <stdio.h>
#include <string.h>

struct _BenchModel {
    GObject parent;
    double value;
    char *text;
};

typedef struct { GObjectClass parent_class; } BenchModelClass;

G_DEFINE_TYPE(BenchModel, bench_model, G_TYPE_OBJECT)

enum { PROP_0, PROP_VALUE, PROP_TEXT, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void bench_model_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
    BenchModel *model = (BenchModel *)object;
    switch (id) {
    case PROP_VALUE: bench_model_set_value(model, g_value_get_double(value)); break;
    case PROP_TEXT: bench_model_set_text(model, g_value_get_string(value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void bench_model_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
    BenchModel *model = (BenchModel *)object;
    switch (id) {
    case PROP_VALUE: g_value_set_double(value, model->value); break;
    case PROP_TEXT: g_value_set_string(value, model->text); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void bench_model_finalize(GObject *object) {
    g_free(((BenchModel *)object)->text);
    G_OBJECT_CLASS(bench_model_parent_class)->finalize(object);
}

static void bench_model_class_init(BenchModelClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    object_class->set_property = bench_model_set_property;
    object_class->get_property = bench_model_get_property;
    object_class->finalize = bench_model_finalize;
    properties[PROP_VALUE] = g_param_spec_double("value", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0,
                                                 G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
    properties[PROP_TEXT] = g_param_spec_string("text", NULL, NULL, "",
                                                G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties(object_class, N_PROPS, properties);
}

static void bench_model_init(BenchModel *model) {
    model->text = g_strdup("");
}

BenchModel *bench_model_new(void) { return g_object_new(bench_model_get_type(), NULL); }

void bench_model_set_value(BenchModel *model, double value) {
    if (model->value == value) return;
    model->value = value;
    g_object_notify_by_pspec(G_OBJECT(model), properties[PROP_VALUE]);
}

double bench_model_get_value(BenchModel *model) { return model->value; }

void bench_model_set_text(BenchModel *model, const char *text) {
    if (g_strcmp0(model->text, text) == 0) return;
    g_free(model->text);
    model->text = g_strdup(text);
    g_object_notify_by_pspec(G_OBJECT(model), properties[PROP_TEXT]);
}

const char *bench_model_get_text(BenchModel *model) { return model->text; }

GBinding *bench_bind_model_to_widget(BenchModel *model, const char *property, gpointer widget) {
    return g_object_bind_property(model, property, widget, property, G_BINDING_SYNC_CREATE);
}

GBinding *bench_bind_both_ways(BenchModel *model, const char *property, gpointer widget) {
    return g_object_bind_property(model, property, widget, property, G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
}

GBinding *bench_bind_widget_to_model(gpointer widget, const char *property, BenchModel *model) {
    return g_object_bind_property(widget, property, model, property, G_BINDING_SYNC_CREATE);
}

static double bare_value;
static char *bare_text;

static void on_value_changed(GtkSpinButton *spin, gpointer data) {
    (void)data;
    bare_value = gtk_spin_button_get_value(spin);
}

static void on_notify_text(GObject *object, GParamSpec *pspec, gpointer data) {
    (void)pspec; (void)data;
    g_free(bare_text);
    bare_text = g_strdup(gtk_editable_get_text(GTK_EDITABLE(object)));
}

gulong bench_connect_bare_spin(GtkSpinButton *spin) {
    return g_signal_connect(spin, "value-changed", G_CALLBACK(on_value_changed), NULL);
}

gulong bench_connect_bare_entry(GtkEditable *editable) {
    return g_signal_connect(editable, "notify::text", G_CALLBACK(on_notify_text), NULL);
}

double bench_bare_last_value(void) { return bare_value; }
size_t bench_bare_text_length(void) { return bare_text ? strlen(bare_text) : 0; }

GtkWidget *bench_spin_button_new(void) {
    GtkWidget *spin = gtk_spin_button_new_with_range(0, 1000, 1);
    gtk_spin_button_set_digits(GTK_SPIN_BUTTON(spin), 0);
    return spin;
}

GtkWidget *bench_entry_new(void) { return gtk_entry_new(); }

static void string_row_setup(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data) {
    (void)factory; (void)data;
    gtk_list_item_set_child(item, gtk_label_new(NULL));
}

static void string_row_bind(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data) {
    (void)factory; (void)data;
    GtkStringObject *string = gtk_list_item_get_item(item);
    gtk_label_set_text(GTK_LABEL(gtk_list_item_get_child(item)), gtk_string_object_get_string(string));
}

GtkWidget *bench_string_list_view_new(guint size, GtkStringList **list) {
    *list = gtk_string_list_new(NULL);
    char text[32];
    for (guint i = 0; i < size; i++) {
        snprintf(text, sizeof text, "Row %u", i);
        gtk_string_list_append(*list, text);
    }
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
    g_signal_connect(factory, "setup", G_CALLBACK(string_row_setup), NULL);
    g_signal_connect(factory, "bind", G_CALLBACK(string_row_bind), NULL);
    // The view owns the selection model, which owns the list; the caller
    // borrows it.
    return gtk_list_view_new(GTK_SELECTION_MODEL(gtk_no_selection_new(G_LIST_MODEL(*list))), factory);
}

GtkWidget *bench_plain_list_view_new(guint size, GtkStringList **list) {
    *list = gtk_string_list_new(NULL);
    char text[32];
    for (guint i = 0; i < size; i++) {
        snprintf(text, sizeof text, "Row %u", i);
        gtk_string_list_append(*list, text);
    }
    static const char row[] =
        "<interface><template class=\"GtkListItem\"><property name=\"child\">"
        "<object class=\"GtkLabel\"/></property></template></interface>";
    GBytes *bytes = g_bytes_new_static(row, sizeof row - 1);
    GtkListItemFactory *factory = gtk_builder_list_item_factory_new_from_bytes(NULL, bytes);
    g_bytes_unref(bytes);
    return gtk_list_view_new(GTK_SELECTION_MODEL(gtk_no_selection_new(G_LIST_MODEL(*list))), factory);
}

void bench_string_list_insert_top(GtkStringList *list, const char *text) {
    const char *const texts[] = {text, NULL};
    gtk_string_list_splice(list, 0, 0, texts);
}

void bench_string_list_remove_top(GtkStringList *list) { gtk_string_list_remove(list, 0); }

void bench_pump(void) {
    while (g_main_context_pending(NULL)) g_main_context_iteration(NULL, FALSE);
}

#include <malloc.h>
#include <stdio.h>
#include <unistd.h>

size_t bench_heap_in_use(void) { return mallinfo2().uordblks; }

size_t bench_resident_bytes(void) {
    FILE *file = fopen("/proc/self/statm", "r");
    if (!file) return 0;
    long size = 0, resident = 0;
    if (fscanf(file, "%ld %ld", &size, &resident) != 2) resident = 0;
    fclose(file);
    return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
}

void bench_callgrind_zero(void) { CALLGRIND_ZERO_STATS; }

void bench_callgrind_dump(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
