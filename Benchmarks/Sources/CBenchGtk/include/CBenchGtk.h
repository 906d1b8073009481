#pragma once
// The C side of the GTK benchmarks: a GObject model for GBinding to bind, and
// bare signal handlers, written as a GTK programmer would in C.
#include <gtk/gtk.h>

// A minimal GObject model with a "value" (double) and a "text" (string)
// property, each with a typed setter that notifies by GParamSpec, as GObject
// code does. It is GBinding's source (model → widget) and target (widget → model).
typedef struct _BenchModel BenchModel;
BenchModel *bench_model_new(void);
void bench_model_set_value(BenchModel *model, double value);
double bench_model_get_value(BenchModel *model);
void bench_model_set_text(BenchModel *model, const char *text);
const char *bench_model_get_text(BenchModel *model);

// g_object_bind_property(model, "value"/"text", widget, "value"/"text", SYNC_CREATE).
GBinding *bench_bind_model_to_widget(BenchModel *model, const char *property, gpointer widget);
// The same, BIDIRECTIONAL: GBinding doing a two-way binding's job, listening
// to the widget's notifications as well as the model's.
GBinding *bench_bind_both_ways(BenchModel *model, const char *property, gpointer widget);
// g_object_bind_property(widget, property, model, property, SYNC_CREATE).
GBinding *bench_bind_widget_to_model(gpointer widget, const char *property, BenchModel *model);

// Bare handlers: "value-changed" on a spin button storing its value, and
// "notify::text" on an editable storing (a copy of) its text; what a C
// programmer writes without any binding.
gulong bench_connect_bare_spin(GtkSpinButton *spin);
gulong bench_connect_bare_entry(GtkEditable *editable);
double bench_bare_last_value(void);
size_t bench_bare_text_length(void);

// "value-changed" is emitted only on change; these make the GTK widgets.
GtkWidget *bench_spin_button_new(void);
GtkWidget *bench_entry_new(void);

// Callgrind's client requests (nothing outside valgrind): zero the counters,
// and write them out as a dump described by `name`.
void bench_callgrind_zero(void);
void bench_callgrind_dump(const char *name);

// GTK's own list model in a list view, the peer of ObservableList and
// ListView: `size` strings, a label per row set on bind.
GtkWidget *bench_string_list_view_new(guint size, GtkStringList **list);
void bench_string_list_insert_top(GtkStringList *list, const char *text);
void bench_string_list_remove_top(GtkStringList *list);
// The same list view with a factory whose rows bind nothing (a builder
// factory with an empty label and no expressions): what GTK itself does for
// a change, with no handler of anyone's.
GtkWidget *bench_plain_list_view_new(guint size, GtkStringList **list);

// Iterates the default main context until nothing is pending.
void bench_pump(void);

// Heap bytes in use (glibc mallinfo2) and the resident set size, in bytes.
size_t bench_heap_in_use(void);
size_t bench_resident_bytes(void);
