#ifndef AUTHTUI_CSQLITE_SHIM_H
#define AUTHTUI_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift imports neither the macro nor the cast.
static inline sqlite3_destructor_type authtui_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
