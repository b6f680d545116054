#ifndef ACTIVETASKKIT_CDBUS_SHIM_H
#define ACTIVETASKKIT_CDBUS_SHIM_H
#include <dbus/dbus.h>
#endif
