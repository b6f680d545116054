#include "CAlsa.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct atk_alsa table;
static const struct atk_alsa *loaded;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libasound.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "cannot load libasound.so.2 (Debian: libasound2): %s", dlerror());
        return;
    }
#define ATK_ALSA_RESOLVE(name) \
    table.name = (__typeof__(table.name))dlsym(library, #name); \
    if (!table.name) { \
        snprintf(failure, sizeof failure, "libasound.so.2 has no %s", #name); \
        return; \
    }
    ATK_ALSA_FUNCTIONS(ATK_ALSA_RESOLVE)
#undef ATK_ALSA_RESOLVE
    loaded = &table;
}

const struct atk_alsa *atk_alsa_load(const char **message) {
    pthread_once(&once, load);
    if (!loaded && message) *message = failure;
    return loaded;
}
