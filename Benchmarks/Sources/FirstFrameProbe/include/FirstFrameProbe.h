#pragma once
// Preloaded (LD_PRELOAD) into a GTK program, the app or its C peer, so that
// both are timed by the same code. It wraps gtk_window_present and watches
// the window's frame clock:
//
// - With $FIRST_FRAME_FILE, on the first "after-paint" it writes the
//   CLOCK_MONOTONIC time in nanoseconds there and exits at once.
// - With $STALL_FILE, on the first "after-paint" it writes that time to
//   $STALL_FILE.ready and starts a 1 ms ticker at high priority; each time the
//   main loop kept the ticker waiting more than 2 ms (handling input, laying
//   out, painting) it notes when the wait ended and how long it was. At exit
//   the notes go to $STALL_FILE, one "END_NS STALL_NS" line each.
// - With $UI_DUMP_FILE, on the first "after-paint" it writes the children of
//   the window's widget built with id "page" (the form's questions) there as
//   GtkBuilder XML, pictures beside it in $UI_DUMP_FILE.pictures, prints
//   how many widgets it wrote and exits: the C peer's widgets for a form.
