#pragma once
// libsecret, for the server's password in the desktop keyring. Its variadic
// calls do not import into Swift; the code uses their `v` forms.
#include <libsecret/secret.h>
