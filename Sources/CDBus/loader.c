#include "CDBus.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct atk_dbus table;
static const struct atk_dbus *loaded;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "cannot load libdbus-1.so.3 (Debian: libdbus-1-3): %s", dlerror());
        return;
    }
#define ATK_DBUS_RESOLVE(name) \
    table.name = (__typeof__(table.name))dlsym(library, #name); \
    if (!table.name) { \
        snprintf(failure, sizeof failure, "libdbus-1.so.3 has no %s", #name); \
        return; \
    }
    ATK_DBUS_FUNCTIONS(ATK_DBUS_RESOLVE)
#undef ATK_DBUS_RESOLVE
    loaded = &table;
}

const struct atk_dbus *atk_dbus_load(const char **message) {
    pthread_once(&once, load);
    if (!loaded && message) *message = failure;
    return loaded;
}
