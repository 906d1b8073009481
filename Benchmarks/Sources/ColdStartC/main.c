// The cold-start peer: a plain C GTK 4 application that loads the app's own
// .ui file (path in argv[1]) and presents its window, as the app does.
#include <gtk/gtk.h>

static const char *ui_path;

static void activate(GtkApplication *application, gpointer data) {
    (void)data;
    GtkBuilder *builder = gtk_builder_new_from_file(ui_path);
    GtkWindow *window = GTK_WINDOW(gtk_builder_get_object(builder, "surveyWindow"));
    gtk_window_set_application(window, application);
    gtk_window_present(window);
    g_object_unref(builder);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        g_printerr("usage: coldstart-c PATH/survey-window.ui\n");
        return 2;
    }
    ui_path = argv[1];
    GtkApplication *application = gtk_application_new("io.github.surveyform.ColdStartPeer", G_APPLICATION_DEFAULT_FLAGS);
    g_signal_connect(application, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(application), 1, argv);
    g_object_unref(application);
    return status;
}
