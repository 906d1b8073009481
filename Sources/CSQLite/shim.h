#pragma once
// SQLite's column functions, for an export that reads every stored row's
// bytes where they lie: GRDB's row wraps each column in a Data.
#include <sqlite3.h>
