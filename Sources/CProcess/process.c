#define _GNU_SOURCE
#include "CProcess.h"

#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>
#include <termios.h>
#include <unistd.h>

enum { slot_count = 256, slot_bytes = 4096 };
enum { slot_free = 0, slot_writing = 1, slot_active = 2 };

static char slot_paths[slot_count][slot_bytes];
static _Atomic int slot_states[slot_count];
static atomic_flag installed = ATOMIC_FLAG_INIT;

static _Atomic int terminal_descriptor = -1;
static struct termios terminal_saved, terminal_raw;

static void remove_registered(int signal_number) {
    int terminal = atomic_load(&terminal_descriptor);
    if (terminal >= 0) tcsetattr(terminal, TCSANOW, &terminal_saved);
    for (int i = 0; i < slot_count; i++) {
        if (atomic_load(&slot_states[i]) == slot_active) unlink(slot_paths[i]);
    }
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal_number, &fallback, NULL);
    raise(signal_number);
}

static const int interrupt_signals[] = {SIGINT, SIGTERM, SIGHUP};

void atk_interrupts_unblock(void) {
    sigset_t taken;
    sigemptyset(&taken);
    for (unsigned i = 0; i < sizeof interrupt_signals / sizeof interrupt_signals[0]; i++) sigaddset(&taken, interrupt_signals[i]);
    pthread_sigmask(SIG_UNBLOCK, &taken, NULL);
}

void atk_interrupts_install(void) {
    atk_interrupts_unblock();
    if (atomic_flag_test_and_set(&installed)) return;
    for (unsigned i = 0; i < sizeof interrupt_signals / sizeof interrupt_signals[0]; i++) {
        struct sigaction previous;
        if (sigaction(interrupt_signals[i], NULL, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = remove_registered;
        sigfillset(&action.sa_mask);  // one handler at a time
        sigaction(interrupt_signals[i], &action, NULL);
    }
}

int atk_interrupts_register(const char *path) {
    size_t length = strlen(path);
    if (length >= slot_bytes) return -1;
    for (int i = 0; i < slot_count; i++) {
        int expected = slot_free;
        if (atomic_compare_exchange_strong(&slot_states[i], &expected, slot_writing)) {
            memcpy(slot_paths[i], path, length + 1);
            atomic_store(&slot_states[i], slot_active);
            return i;
        }
    }
    return -1;
}

void atk_interrupts_unregister(int slot) {
    if (slot >= 0 && slot < slot_count) atomic_store(&slot_states[slot], slot_free);
}

void atk_malloc_one_arena(void) { mallopt(M_ARENA_MAX, 1); }

void atk_malloc_keep_freed(void) {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

// libdispatch's entry for CoreFoundation's run loop (exported by libdispatch.so and .a).
extern int _dispatch_get_main_queue_handle_4CF(void);

void atk_dispatch_main_queue_prepare(void) {
    (void)_dispatch_get_main_queue_handle_4CF();
}

long atk_filesystem_type(int descriptor) {
    struct statfs system;
    return fstatfs(descriptor, &system) == 0 ? (long)system.f_type : 0;
}

static void stop_with_terminal_restored(int signal_number) {
    int terminal = atomic_load(&terminal_descriptor);
    if (terminal >= 0) tcsetattr(terminal, TCSANOW, &terminal_saved);
    struct sigaction action, previous;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal_number, &action, &previous);
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, signal_number);
    pthread_sigmask(SIG_UNBLOCK, &stop, NULL);
    raise(signal_number);  // stops here; returns after SIGCONT
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    sigaction(signal_number, &previous, NULL);
    terminal = atomic_load(&terminal_descriptor);
    if (terminal >= 0) tcsetattr(terminal, TCSANOW, &terminal_raw);
}

void atk_terminal_register(int descriptor, const void *saved, const void *raw, unsigned long size) {
    if (size != sizeof(struct termios)) return;
    atomic_store(&terminal_descriptor, -1);
    memcpy(&terminal_saved, saved, size);
    memcpy(&terminal_raw, raw, size);
    atomic_store(&terminal_descriptor, descriptor);
    atk_interrupts_install();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = stop_with_terminal_restored;
    sigfillset(&action.sa_mask);
    sigaction(SIGTSTP, &action, NULL);
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTSTP);
    sigaddset(&stop, SIGCONT);
    pthread_sigmask(SIG_UNBLOCK, &stop, NULL);
}

void atk_terminal_unregister(void) {
    atomic_store(&terminal_descriptor, -1);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTSTP, &action, NULL);
}

int atk_thread_affinity(unsigned char *mask, unsigned long bytes, int set) {
    cpu_set_t cpus;
    if (bytes > sizeof cpus) bytes = sizeof cpus;
    if (set) {
        CPU_ZERO(&cpus);
        memcpy(&cpus, mask, bytes);
        return sched_setaffinity(0, sizeof cpus, &cpus);
    }
    if (sched_getaffinity(0, sizeof cpus, &cpus) != 0) return -1;
    memcpy(mask, &cpus, bytes);
    return 0;
}

int atk_format_g(char *buffer, unsigned long size, int digits, double value) {
    return snprintf(buffer, size, "%.*g", digits, value);
}
