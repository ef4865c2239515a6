// SQLite 3, for the entitlement cache and the fake store's state.
#include <sqlite3.h>
