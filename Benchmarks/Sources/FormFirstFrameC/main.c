// The first-frame peer of survey-form: a plain C libadwaita application that
// loads a .ui file holding the widgets survey-form builds for a form (the
// built-in survey's, Benchmarks/coldstart-ui.py; a generated one's,
// Benchmarks/forms/make-form-ui.py) and presents its window.
//
// With three files, WINDOW.ui STYLE.css PAGE.ui: the app's own window
// (Resources/ui/form-window.ui) and style sheet, and the questions the probe
// wrote from the app's window for a form (its UI_DUMP_FILE), added to the
// window's page as the app adds them.
#include <adwaita.h>

static const char *ui_path, *style_path, *page_path;

static void activate(GtkApplication *application, gpointer data) {
    (void)data;
    GtkBuilder *builder = gtk_builder_new_from_file(ui_path);
    if (style_path) {
        GtkCssProvider *provider = gtk_css_provider_new();
        gtk_css_provider_load_from_path(provider, style_path);
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(provider),
                                                   GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
        g_object_unref(provider);
    }
    if (page_path) {
        GError *error = NULL;
        if (!gtk_builder_add_from_file(builder, page_path, &error)) g_error("%s", error->message);
        gtk_box_append(GTK_BOX(gtk_builder_get_object(builder, "page")),
                       GTK_WIDGET(gtk_builder_get_object(builder, "dumpedPage")));
    }
    GtkWindow *window = GTK_WINDOW(gtk_builder_get_object(builder, "formWindow"));
    gtk_window_set_application(window, application);
    gtk_window_present(window);
    g_object_unref(builder);
}

int main(int argc, char **argv) {
    if (argc != 2 && argc != 4) {
        g_printerr("usage: form-firstframe-c FORM.ui | WINDOW.ui STYLE.css PAGE.ui\n");
        return 2;
    }
    ui_path = argv[1];
    if (argc == 4) {
        style_path = argv[2];
        page_path = argv[3];
    }
    AdwApplication *application = adw_application_new("io.github.surveyform.FormFirstFramePeer", G_APPLICATION_DEFAULT_FLAGS);
    g_signal_connect(application, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(application), 1, argv);
    g_object_unref(application);
    return status;
}
