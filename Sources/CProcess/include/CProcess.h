#ifndef ATK_PROCESS_H
#define ATK_PROCESS_H

/// The toolkit's process-wide C: temporary files removed when a signal ends the process, and
/// how malloc keeps memory.
///
/// Temporary files removed when the process is ended by SIGINT, SIGTERM or SIGHUP.
///
/// A command writes each output to a temporary file beside its target and renames it into
/// place when complete; if a signal ends the command first, the handler unlinks every temporary
/// still registered (unlink is async-signal-safe, POSIX.1-2017 §2.4.3) and then ends the process
/// by the same signal with its default action, so the shell sees the signal's status (130 for
/// SIGINT). The registry is a fixed table of slots filled and emptied with C11 atomics: the
/// handler never allocates, locks or reads a slot being written.

/// Installs the handler for SIGINT, SIGTERM and SIGHUP (once) and unblocks the three on the
/// calling thread (each call). Signals whose disposition is SIG_IGN (a `nohup` run) are left ignored.
void atk_interrupts_install(void);

/// Unblocks SIGINT, SIGTERM and SIGHUP on the calling thread: a mask inherited from the parent's
/// thread (a test runner's, a supervisor's) would hold them until the process ends by itself.
void atk_interrupts_unblock(void);

/// Registers `path` for removal; returns the slot, or -1 when the path is longer than the slot
/// (4,095 bytes) or every slot is taken (then the path is not removed on a signal).
int atk_interrupts_register(const char *path);

/// Forgets the slot's path (after the file was renamed into place or removed).
void atk_interrupts_unregister(int slot);

/// Keeps malloc to one arena (glibc `mallopt(M_ARENA_MAX, 1)`): each thread that allocates
/// otherwise reserves a 64 MiB heap of address space, which an address-space limit counts.
void atk_malloc_one_arena(void);

/// Keeps what malloc frees for the next allocation instead of returning it to the kernel:
/// blocks under 32 MiB come from the heap (`M_MMAP_THRESHOLD`), and the heap is trimmed only
/// above 256 MiB free at its top (`M_TRIM_THRESHOLD`). glibc's defaults map and unmap an
/// analysis's large arrays again and again, and every new page costs a fault and a clearing.
void atk_malloc_keep_freed(void);

/// A terminal in raw mode, put back by the handler of SIGINT, SIGTERM and SIGHUP before the
/// process ends, and around a stop: SIGTSTP puts back `saved`, stops the process, and on SIGCONT
/// sets `raw` again (tcsetattr is async-signal-safe). `saved` and `raw` are `struct termios` of
/// `size` bytes. One terminal at a time; installs the interrupt handler.
void atk_terminal_register(int descriptor, const void *saved, const void *raw, unsigned long size);

/// Forgets the terminal (after the program put it back itself).
void atk_terminal_unregister(void);

/// Makes libdispatch create the main queue's wake-up descriptor (an eventfd) now, while the
/// process has descriptors to spare. It does so once, on first use: at the latest when the main
/// thread, having handed the main queue to the async main (`dispatch_main`), cleans up — which may
/// come after the command opened files, and a process at its limit of open files (`ulimit -n 7`)
/// then aborts inside libdispatch instead of reporting the limit. Call first thing in main.
void atk_dispatch_main_queue_prepare(void);

/// The `statfs` magic number of the file system `descriptor` is on (linux/magic.h), or 0 when
/// fstatfs fails. (Glibc's Swift module does not import sys/vfs.h.)
long atk_filesystem_type(int descriptor);

/// The calling thread's processor affinity as a bit mask (bit k of byte k / 8 for processor k),
/// `bytes` long: read into `mask` (`set` 0) or set from it (`set` 1). 0 on success, -1 with
/// errno (sched_getaffinity and sched_setaffinity for thread 0).
int atk_thread_affinity(unsigned char *mask, unsigned long bytes, int set);

/// printf's `%.*g` of `value` with `digits` significant digits into `buffer` (`size` bytes,
/// NUL-terminated); returns what snprintf returns. Called from Swift without a variadic list:
/// Swift builds one with a dynamic cast per argument, a scan of every protocol conformance in
/// the binary the first time.
int atk_format_g(char *buffer, unsigned long size, int digits, double value);

#endif
