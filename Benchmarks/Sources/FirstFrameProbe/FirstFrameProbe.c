#define _GNU_SOURCE
#include "FirstFrameProbe.h"
#include "WidgetDump.h"
#include <gtk/gtk.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static gboolean probing;
static GtkWidget *probed_window;

// The descendant GtkBuilder made with `id`, if any.
static GtkWidget *built_descendant(GtkWidget *widget, const char *id) {
    const char *own = GTK_IS_BUILDABLE(widget) ? gtk_buildable_get_buildable_id(GTK_BUILDABLE(widget)) : NULL;
    if (own && strcmp(own, id) == 0) return widget;
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child)) {
        GtkWidget *found = built_descendant(child, id);
        if (found) return found;
    }
    return NULL;
}

static long long now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static void write_time(const char *path, long long time) {
    FILE *file = path ? fopen(path, "w") : stderr;
    if (file) {
        fprintf(file, "%lld\n", time);
        if (path) fclose(file);
    }
}

// Stalls of the main loop: when each ended and how long it was.
enum { MAX_STALLS = 1 << 16 };
static long long stall_end[MAX_STALLS], stall_length[MAX_STALLS];
static int stall_count;
static long long last_tick;

static gboolean tick(gpointer data) {
    (void)data;
    long long now = now_ns();
    // The ticker asks for 1 ms; more than 2 ms means the loop was busy.
    if (now - last_tick > 2000000 && stall_count < MAX_STALLS) {
        stall_end[stall_count] = now;
        stall_length[stall_count] = now - last_tick - 1000000;
        stall_count++;
    }
    last_tick = now;
    return G_SOURCE_CONTINUE;
}

static void write_stalls(void) {
    FILE *file = fopen(getenv("STALL_FILE"), "w");
    if (!file) return;
    for (int i = 0; i < stall_count; i++) fprintf(file, "%lld %lld\n", stall_end[i], stall_length[i]);
    fclose(file);
}

static void after_paint(GdkFrameClock *clock, gpointer data) {
    (void)data;
    long long now = now_ns();
    const char *stall_file = getenv("STALL_FILE");
    const char *dump_file = getenv("UI_DUMP_FILE");
    if (dump_file) {
        GtkWidget *page = probed_window ? built_descendant(probed_window, "page") : NULL;
        char *media = g_strconcat(dump_file, ".pictures", NULL);
        int widgets = page ? widget_dump_children(page, dump_file, media) : -1;
        g_free(media);
        printf("%d\n", widgets);
        fflush(stdout);
        _exit(widgets < 0 ? 1 : 0);
    }
    if (!stall_file) {
        write_time(getenv("FIRST_FRAME_FILE"), now);
        _exit(0);
    }
    g_signal_handlers_disconnect_by_func(clock, after_paint, NULL);
    atexit(write_stalls);
    last_tick = now;
    g_timeout_add_full(G_PRIORITY_HIGH, 1, tick, NULL, NULL);
    char *ready = g_strconcat(stall_file, ".ready", NULL);
    write_time(ready, now);
    g_free(ready);
}

static void on_realize(GtkWidget *widget, gpointer data) {
    (void)data;
    probed_window = widget;
    GdkFrameClock *clock = gtk_widget_get_frame_clock(widget);
    if (clock) g_signal_connect(clock, "after-paint", G_CALLBACK(after_paint), NULL);
}

void gtk_window_present(GtkWindow *window) {
    static void (*real)(GtkWindow *);
    if (!real) real = (void (*)(GtkWindow *))dlsym(RTLD_NEXT, "gtk_window_present");
    if (!probing) {
        probing = TRUE;
        if (gtk_widget_get_realized(GTK_WIDGET(window)))
            on_realize(GTK_WIDGET(window), NULL);
        else
            g_signal_connect_after(window, "realize", G_CALLBACK(on_realize), NULL);
    }
    real(window);
}
