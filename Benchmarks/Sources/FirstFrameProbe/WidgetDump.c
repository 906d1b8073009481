// Writes the widgets survey-form built for a form as GtkBuilder XML, so that
// the C peer of the first-frame benchmark builds the same widgets from it
// (Benchmarks/forms/dump-form-ui). Generic over the form: each widget's class
// and every writable property that differs from its default, read through
// GObject introspection; pictures are written out as PNG files the .ui names.
//
// Containers are walked through their public structure (a box's children, a
// scrolled window's child, a preferences group's added rows), never into the
// widgets a class builds inside itself (an entry's text, a drop-down's
// button): constructing the class builds those again.
#include "WidgetDump.h"
#include <adwaita.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    FILE *out;
    const char *media_folder;
    int next_id;
    int next_picture;
    int widgets;
} Dump;

static void dump_widget(Dump *dump, GtkWidget *widget, int depth);

static void indent(Dump *dump, int depth) {
    for (int i = 0; i < depth; i++) fputs("  ", dump->out);
}

static void write_escaped(FILE *out, const char *text) {
    for (const char *c = text; *c; c++) {
        switch (*c) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*c, out);
        }
    }
}

// Properties the builder must not set: state GTK keeps for itself, or set
// through the structure written around them.
static gboolean skipped_property(const char *name) {
    static const char *const skipped[] = {
        "parent", "root", "child", "content", "titlebar", "has-focus", "is-focus", "has-default",
        "layout-manager", "css-name", "accessible-role", "cursor-position", "selection-bound",
        "scroll-offset", "default-widget", "focus-widget", "transient-for", "application",
        "display", "hadjustment", "vadjustment", "popover", "menu-model", "mnemonic-widget",
        "group", "selected-item", "list-factory", "factory", "expression", "title-widget",
        "activatable-widget", "start-widget", "center-widget", "end-widget", "tabs", "buffer",
        "model", "adjustment", "paintable", "file", "gicon", "extra-menu", "completion",
        "attributes", "tabs", "im-module", "input-hints", "cursor", "font-options", "font-map",
        "startup-id", "icon-name-set",
        // A character GtkBuilder reads from a character, not from its number.
        "invisible-char", "invisible-char-set", NULL,
    };
    for (int i = 0; skipped[i]; i++)
        if (strcmp(name, skipped[i]) == 0) return TRUE;
    return FALSE;
}

// One property's value as GtkBuilder reads it; FALSE for a type it cannot.
static gboolean format_value(const GValue *value, GString *text) {
    GType type = G_VALUE_TYPE(value);
    if (type == G_TYPE_BOOLEAN) {
        g_string_append(text, g_value_get_boolean(value) ? "true" : "false");
    } else if (type == G_TYPE_INT) {
        g_string_append_printf(text, "%d", g_value_get_int(value));
    } else if (type == G_TYPE_UINT) {
        g_string_append_printf(text, "%u", g_value_get_uint(value));
    } else if (type == G_TYPE_DOUBLE) {
        g_string_append_printf(text, "%.17g", g_value_get_double(value));
    } else if (type == G_TYPE_FLOAT) {
        g_string_append_printf(text, "%.9g", (double)g_value_get_float(value));
    } else if (type == G_TYPE_STRING) {
        const char *string = g_value_get_string(value);
        if (!string || !*string) return FALSE;
        g_string_append(text, string);
    } else if (G_TYPE_IS_ENUM(type)) {
        GEnumClass *klass = g_type_class_ref(type);
        GEnumValue *found = g_enum_get_value(klass, g_value_get_enum(value));
        if (found) g_string_append(text, found->value_nick);
        g_type_class_unref(klass);
        return found != NULL;
    } else if (G_TYPE_IS_FLAGS(type)) {
        GFlagsClass *klass = g_type_class_ref(type);
        guint flags = g_value_get_flags(value);
        for (guint i = 0; i < klass->n_values; i++) {
            GFlagsValue *flag = &klass->values[i];
            if (flag->value && (flags & flag->value) == flag->value) {
                if (text->len) g_string_append_c(text, '|');
                g_string_append(text, flag->value_nick);
                flags &= ~flag->value;
            }
        }
        g_type_class_unref(klass);
    } else {
        return FALSE;
    }
    return TRUE;
}

// Every writable, non-default property of a plain type.
static void dump_properties(Dump *dump, GObject *object, int depth) {
    guint count = 0;
    GParamSpec **specs = g_object_class_list_properties(G_OBJECT_GET_CLASS(object), &count);
    for (guint i = 0; i < count; i++) {
        GParamSpec *spec = specs[i];
        if (!(spec->flags & G_PARAM_WRITABLE) || !(spec->flags & G_PARAM_READABLE)) continue;
        if (spec->flags & G_PARAM_DEPRECATED) continue;
        if (skipped_property(spec->name)) continue;
        GValue value = G_VALUE_INIT;
        g_value_init(&value, spec->value_type);
        g_object_get_property(object, spec->name, &value);
        if (!g_param_value_defaults(spec, &value)) {
            GString *text = g_string_new(NULL);
            if (format_value(&value, text)) {
                indent(dump, depth);
                fprintf(dump->out, "<property name=\"%s\">", spec->name);
                write_escaped(dump->out, text->str);
                fputs("</property>\n", dump->out);
            }
            g_string_free(text, TRUE);
        }
        g_value_unset(&value);
    }
    g_free(specs);
}

static void open_object(Dump *dump, GObject *object, int depth) {
    indent(dump, depth);
    fprintf(dump->out, "<object class=\"%s\" id=\"dumped%d\">\n", G_OBJECT_TYPE_NAME(object), dump->next_id++);
    dump_properties(dump, object, depth + 1);
}

static void close_object(Dump *dump, int depth) {
    indent(dump, depth);
    fputs("</object>\n", dump->out);
}

static void dump_css_classes(Dump *dump, GtkWidget *widget, int depth) {
    char **classes = gtk_widget_get_css_classes(widget);
    if (classes && classes[0]) {
        indent(dump, depth);
        fputs("<style>", dump->out);
        for (int i = 0; classes[i]; i++) fprintf(dump->out, "<class name=\"%s\"/>", classes[i]);
        fputs("</style>\n", dump->out);
    }
    g_strfreev(classes);
}

static void dump_child(Dump *dump, GtkWidget *child, int depth, const char *type) {
    indent(dump, depth);
    if (type) fprintf(dump->out, "<child type=\"%s\">\n", type); else fputs("<child>\n", dump->out);
    dump_widget(dump, child, depth + 1);
    indent(dump, depth);
    fputs("</child>\n", dump->out);
}

static void dump_property_child(Dump *dump, GtkWidget *child, int depth) {
    if (!child) return;
    indent(dump, depth);
    fputs("<property name=\"child\">\n", dump->out);
    dump_widget(dump, child, depth + 1);
    indent(dump, depth);
    fputs("</property>\n", dump->out);
}

static void dump_children(Dump *dump, GtkWidget *container, int depth) {
    for (GtkWidget *child = gtk_widget_get_first_child(container); child; child = gtk_widget_get_next_sibling(child))
        dump_child(dump, child, depth, NULL);
}

// A nested object for an object-valued property the builder can make.
static void dump_object_property(Dump *dump, GtkWidget *widget, int depth) {
    if (GTK_IS_SPIN_BUTTON(widget) || GTK_IS_RANGE(widget)) {
        GtkAdjustment *adjustment = GTK_IS_SPIN_BUTTON(widget) ? gtk_spin_button_get_adjustment(GTK_SPIN_BUTTON(widget))
                                                               : gtk_range_get_adjustment(GTK_RANGE(widget));
        indent(dump, depth);
        fputs("<property name=\"adjustment\">\n", dump->out);
        open_object(dump, G_OBJECT(adjustment), depth + 1);
        close_object(dump, depth + 1);
        indent(dump, depth);
        fputs("</property>\n", dump->out);
    }
    if (GTK_IS_DROP_DOWN(widget)) {
        GListModel *model = gtk_drop_down_get_model(GTK_DROP_DOWN(widget));
        if (model && GTK_IS_STRING_LIST(model)) {
            indent(dump, depth);
            fputs("<property name=\"model\">\n", dump->out);
            indent(dump, depth + 1);
            fprintf(dump->out, "<object class=\"GtkStringList\" id=\"dumped%d\"><items>\n", dump->next_id++);
            guint count = g_list_model_get_n_items(model);
            for (guint i = 0; i < count; i++) {
                indent(dump, depth + 2);
                fputs("<item>", dump->out);
                write_escaped(dump->out, gtk_string_list_get_string(GTK_STRING_LIST(model), i));
                fputs("</item>\n", dump->out);
            }
            indent(dump, depth + 1);
            fputs("</items></object>\n", dump->out);
            indent(dump, depth);
            fputs("</property>\n", dump->out);
        }
    }
    if (GTK_IS_TEXT_VIEW(widget)) {
        GtkTextBuffer *buffer = gtk_text_view_get_buffer(GTK_TEXT_VIEW(widget));
        GtkTextIter start, end;
        gtk_text_buffer_get_bounds(buffer, &start, &end);
        char *text = gtk_text_buffer_get_text(buffer, &start, &end, FALSE);
        indent(dump, depth);
        fprintf(dump->out, "<property name=\"buffer\"><object class=\"GtkTextBuffer\" id=\"dumped%d\">"
                "<property name=\"text\">", dump->next_id++);
        write_escaped(dump->out, text);
        fputs("</property></object></property>\n", dump->out);
        g_free(text);
    }
    GdkPaintable *paintable = NULL;
    if (GTK_IS_PICTURE(widget)) paintable = gtk_picture_get_paintable(GTK_PICTURE(widget));
    if (GTK_IS_IMAGE(widget) && gtk_image_get_storage_type(GTK_IMAGE(widget)) == GTK_IMAGE_PAINTABLE)
        paintable = gtk_image_get_paintable(GTK_IMAGE(widget));
    if (paintable && GDK_IS_TEXTURE(paintable) && dump->media_folder) {
        // The peer reads the same pixels from a file, as the app read them.
        char *path = g_strdup_printf("%s/picture-%d.png", dump->media_folder, dump->next_picture++);
        if (gdk_texture_save_to_png(GDK_TEXTURE(paintable), path)) {
            indent(dump, depth);
            fputs("<property name=\"file\">", dump->out);
            write_escaped(dump->out, path);
            fputs("</property>\n", dump->out);
        }
        g_free(path);
    }
}

// The rows and widgets added to a preferences group: libadwaita 1.2 keeps
// them in a box after the title's, rows in a list box it begins with.
static void dump_preferences_group(Dump *dump, GtkWidget *group, int depth) {
    GtkWidget *box = gtk_widget_get_first_child(group);
    GtkWidget *header = box ? gtk_widget_get_first_child(box) : NULL;
    GtkWidget *added = header ? gtk_widget_get_next_sibling(header) : NULL;
    if (!added) return;
    GtkWidget *rows = gtk_widget_get_first_child(added);
    if (rows && GTK_IS_LIST_BOX(rows)) {
        for (GtkWidget *row = gtk_widget_get_first_child(rows); row; row = gtk_widget_get_next_sibling(row)) {
            // A widget the list box wrapped in a row is added as itself.
            GtkWidget *child = G_OBJECT_TYPE(row) == GTK_TYPE_LIST_BOX_ROW ? gtk_list_box_row_get_child(GTK_LIST_BOX_ROW(row)) : row;
            if (child) dump_child(dump, child, depth, NULL);
        }
    }
    for (GtkWidget *child = rows ? gtk_widget_get_next_sibling(rows) : NULL; child; child = gtk_widget_get_next_sibling(child))
        dump_child(dump, child, depth, NULL);
}

static void dump_widget(Dump *dump, GtkWidget *widget, int depth) {
    // A scrolled window's viewport is made by the scrolled window itself.
    if (GTK_IS_VIEWPORT(widget) && gtk_viewport_get_child(GTK_VIEWPORT(widget))) {
        dump_widget(dump, gtk_viewport_get_child(GTK_VIEWPORT(widget)), depth);
        return;
    }
    dump->widgets++;
    open_object(dump, G_OBJECT(widget), depth);
    dump_object_property(dump, widget, depth + 1);
    if (GTK_IS_BOX(widget) || GTK_IS_LIST_BOX(widget)) {
        dump_children(dump, widget, depth + 1);
    } else if (ADW_IS_PREFERENCES_GROUP(widget)) {
        dump_preferences_group(dump, widget, depth + 1);
    } else if (GTK_IS_FLOW_BOX(widget)) {
        for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child))
            if (GTK_IS_FLOW_BOX_CHILD(child) && gtk_flow_box_child_get_child(GTK_FLOW_BOX_CHILD(child)))
                dump_child(dump, gtk_flow_box_child_get_child(GTK_FLOW_BOX_CHILD(child)), depth + 1, NULL);
    } else if (GTK_IS_GRID(widget)) {
        for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child)) {
            int column, row, width, height;
            gtk_grid_query_child(GTK_GRID(widget), child, &column, &row, &width, &height);
            indent(dump, depth + 1);
            fputs("<child>\n", dump->out);
            dump_widget(dump, child, depth + 2);
            indent(dump, depth + 2);
            fprintf(dump->out, "<layout><property name=\"column\">%d</property><property name=\"row\">%d</property>"
                    "<property name=\"column-span\">%d</property><property name=\"row-span\">%d</property></layout>\n",
                    column, row, width, height);
            indent(dump, depth + 1);
            fputs("</child>\n", dump->out);
        }
    } else if (GTK_IS_OVERLAY(widget)) {
        GtkWidget *main_child = gtk_overlay_get_child(GTK_OVERLAY(widget));
        dump_property_child(dump, main_child, depth + 1);
        for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child))
            if (child != main_child) dump_child(dump, child, depth + 1, "overlay");
    } else if (GTK_IS_SCROLLED_WINDOW(widget)) {
        dump_property_child(dump, gtk_scrolled_window_get_child(GTK_SCROLLED_WINDOW(widget)), depth + 1);
    } else if (ADW_IS_CLAMP(widget)) {
        dump_property_child(dump, adw_clamp_get_child(ADW_CLAMP(widget)), depth + 1);
    } else if (ADW_IS_BIN(widget)) {
        dump_property_child(dump, adw_bin_get_child(ADW_BIN(widget)), depth + 1);
    } else if (GTK_IS_FRAME(widget)) {
        dump_property_child(dump, gtk_frame_get_child(GTK_FRAME(widget)), depth + 1);
    } else if (GTK_IS_REVEALER(widget)) {
        dump_property_child(dump, gtk_revealer_get_child(GTK_REVEALER(widget)), depth + 1);
    } else if (GTK_IS_EXPANDER(widget)) {
        dump_property_child(dump, gtk_expander_get_child(GTK_EXPANDER(widget)), depth + 1);
    } else if (G_OBJECT_TYPE(widget) == GTK_TYPE_LIST_BOX_ROW) {
        dump_property_child(dump, gtk_list_box_row_get_child(GTK_LIST_BOX_ROW(widget)), depth + 1);
    } else if (GTK_IS_BUTTON(widget) && !GTK_IS_LINK_BUTTON(widget) && !gtk_button_get_label(GTK_BUTTON(widget))
               && !gtk_button_get_icon_name(GTK_BUTTON(widget))) {
        dump_property_child(dump, gtk_button_get_child(GTK_BUTTON(widget)), depth + 1);
    }
    dump_css_classes(dump, widget, depth + 1);
    close_object(dump, depth);
}

int widget_dump_children(GtkWidget *container, const char *path, const char *media_folder) {
    Dump dump = {.out = fopen(path, "w"), .media_folder = media_folder};
    if (!dump.out) return -1;
    g_mkdir_with_parents(media_folder, 0700);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<interface>\n", dump.out);
    fputs("  <object class=\"GtkBox\" id=\"dumpedPage\">\n", dump.out);
    dump_properties(&dump, G_OBJECT(container), 2);
    dump_children(&dump, container, 2);
    dump_css_classes(&dump, container, 2);
    fputs("  </object>\n</interface>\n", dump.out);
    fclose(dump.out);
    return dump.widgets;
}
