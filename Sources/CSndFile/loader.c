#include "CSndFile.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct atk_sndfile table;
static const struct atk_sndfile *loaded;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libsndfile.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "cannot load libsndfile.so.1 (Debian: libsndfile1): %s", dlerror());
        return;
    }
#define ATK_SNDFILE_RESOLVE(name) \
    table.name = (__typeof__(table.name))dlsym(library, #name); \
    if (!table.name) { \
        snprintf(failure, sizeof failure, "libsndfile.so.1 has no %s", #name); \
        return; \
    }
    ATK_SNDFILE_FUNCTIONS(ATK_SNDFILE_RESOLVE)
#undef ATK_SNDFILE_RESOLVE
    loaded = &table;
}

const struct atk_sndfile *atk_sndfile_load(const char **message) {
    pthread_once(&once, load);
    if (!loaded && message) *message = failure;
    return loaded;
}
