#pragma once
// Preloaded (LD_PRELOAD) into both cold-start programs, the app and its C
// peer, so that both are timed by the same code: it wraps gtk_window_present,
// and on the window's first frame clock "after-paint" it writes the
// CLOCK_MONOTONIC time in nanoseconds to $FIRST_FRAME_FILE and exits at once.
