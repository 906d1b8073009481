// The first-frame peer of survey-form: a plain C libadwaita application that
// loads a .ui file holding the widgets survey-form builds for a form (the
// built-in survey's, Benchmarks/coldstart-ui.py; a generated one's,
// Benchmarks/forms/make-form-ui.py) and presents its window.
#include <adwaita.h>

static const char *ui_path;

static void activate(GtkApplication *application, gpointer data) {
    (void)data;
    GtkBuilder *builder = gtk_builder_new_from_file(ui_path);
    GtkWindow *window = GTK_WINDOW(gtk_builder_get_object(builder, "formWindow"));
    gtk_window_set_application(window, application);
    gtk_window_present(window);
    g_object_unref(builder);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        g_printerr("usage: form-firstframe-c FORM.ui\n");
        return 2;
    }
    ui_path = argv[1];
    AdwApplication *application = adw_application_new("io.github.surveyform.FormFirstFramePeer", G_APPLICATION_DEFAULT_FLAGS);
    g_signal_connect(application, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(application), 1, argv);
    g_object_unref(application);
    return status;
}
