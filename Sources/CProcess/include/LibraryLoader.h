#ifndef ACTIVETASKKIT_LIBRARY_LOADER_H
#define ACTIVETASKKIT_LIBRARY_LOADER_H
// A C library loaded on first use instead of linked (CSndFile, CAlsa, CDBus): the loader of
// `struct NAME`, the table of the functions FUNCTIONS lists (an X-macro of their names), each
// field declared `__typeof__(function) *function`. ATK_LIBRARY_LOADER(NAME, SONAME, PACKAGE,
// FUNCTIONS) in one C file defines `const struct NAME *NAME_load(const char **message)`: the
// table, every entry set, after loading SONAME once per process; NULL when it cannot be loaded
// or lacks a function, `*message` then says which (naming the Debian PACKAGE that ships it).
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define ATK_LIBRARY_RESOLVE(function) \
    table.function = (__typeof__(table.function))dlsym(library, #function); \
    if (!table.function) { \
        snprintf(failure, sizeof failure, "%s has no %s", soname, #function); \
        return; \
    }

#define ATK_LIBRARY_LOADER(name, library_soname, package, FUNCTIONS) \
    static const char soname[] = library_soname; \
    static struct name table; \
    static const struct name *loaded; \
    static char failure[512]; \
    static pthread_once_t once = PTHREAD_ONCE_INIT; \
    static void load(void) { \
        void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL); \
        if (!library) { \
            snprintf(failure, sizeof failure, "cannot load %s (Debian: %s): %s", soname, package, dlerror()); \
            return; \
        } \
        FUNCTIONS(ATK_LIBRARY_RESOLVE) \
        loaded = &table; \
    } \
    const struct name *name##_load(const char **message) { \
        pthread_once(&once, load); \
        if (!loaded && message) *message = failure; \
        return loaded; \
    }
#endif
