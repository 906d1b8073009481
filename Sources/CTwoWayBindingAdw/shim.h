#pragma once
// libadwaita for TwoWayBindingAdw; the rest of the library needs only GTK.
// NB: GTK comes in through the CTwoWayBindingGtkShims module's own header, so that clang imports
// that module here instead of a second copy of GTK's declarations (with two
// copies Swift loses sight of some GTK types in every file of the app).
#include "../CTwoWayBindingGtkShims/shim.h"
#include <adwaita.h>

// NB: GTK reads the icon theme on a worker thread as its display opens, but
// adw_init then adds libadwaita's icons to it, which drops what was read: the
// first icon a window shows would read the whole theme again on the main
// thread, delaying its first frame. GTK 4's icon theme takes lookups from any
// thread under its own lock (as its own loading thread does), so a lookup on
// a worker reads it again there.
static inline void twb_adw_read_icon_theme(GTask *task, gpointer theme, gpointer data, GCancellable *cancellable) {
    (void)task;
    (void)data;
    (void)cancellable;
    gtk_icon_theme_has_icon(GTK_ICON_THEME(theme), "image-missing");
}

static inline void twb_adw_read_icon_theme_in_background(void) {
    GdkDisplay *display = gdk_display_get_default();
    if (display == NULL) return;
    GTask *task = g_task_new(gtk_icon_theme_get_for_display(display), NULL, NULL, NULL);
    g_task_run_in_thread(task, twb_adw_read_icon_theme);
    g_object_unref(task);
}

// NB: GTK parses its own Adwaita theme as it sets up its display, and adw_init
// then swaps it for libadwaita's stylesheet: about a tenth of a libadwaita
// app's start spent on a theme never drawn. Naming libadwaita's empty theme
// in GTK_THEME while GTK sets up its display skips that parse. The variable is
// gone again before adw_init, which reads it to decide whether to style the
// app at all, and before any child process could inherit it. It is set only
// when the user has not set it, and only when libadwaita's empty theme is
// there to be found (otherwise GTK would parse its default theme anyway).
// NB: the variable is added and removed while the process has one thread
// (the caller's promise: before GApplication registers and before GTK
// starts); GTK's own threads start inside gtk_init_check, and removing the
// environment's last entry, which a variable just added is, moves no other
// entry, so a concurrent lookup of any other variable is unaffected.
static inline gboolean twb_adw_init_gtk_without_its_theme(void) {
    if (gtk_is_initialized()) return TRUE;
    const char *empty = "/org/gtk/libgtk/theme/Adwaita-empty/gtk.css";
    if (g_getenv("GTK_THEME") != NULL || !g_resources_get_info(empty, 0, NULL, NULL, NULL)) {
        return gtk_init_check();
    }
    g_setenv("GTK_THEME", "Adwaita-empty", TRUE);
    gboolean opened = gtk_init_check();
    // GTK reads its theme when the display's settings are first asked for,
    // which gtk_init_check leaves to adw_init: ask now, while the name holds.
    if (opened) gtk_settings_get_for_display(gdk_display_get_default());
    g_unsetenv("GTK_THEME");
    return opened;
}
