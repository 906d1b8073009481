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
