#pragma once
// libadwaita for TwoWayBindingAdw; the rest of the library needs only GTK.
// NB: GTK comes in through the CTwoWayBindingGtkShims module's own header, so that clang imports
// that module here instead of a second copy of GTK's declarations (with two
// copies Swift loses sight of some GTK types in every file of the app).
#include "../CTwoWayBindingGtkShims/shim.h"
#include <adwaita.h>
