#include "CDBus.h"
#include "LibraryLoader.h"

ATK_LIBRARY_LOADER(atk_dbus, "libdbus-1.so.3", "libdbus-1-3", ATK_DBUS_FUNCTIONS)
