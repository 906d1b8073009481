#pragma once
#include <gtk/gtk.h>

// Writes `container`'s children as a GtkBuilder .ui at `path`: one GtkBox
// with id "dumpedPage" holding them, pictures as PNG files in `media_folder`.
// Returns the number of widgets written, or -1 if `path` cannot be written.
int widget_dump_children(GtkWidget *container, const char *path, const char *media_folder);
