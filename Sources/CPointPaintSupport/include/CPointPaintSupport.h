// Small compiler built-ins Swift cannot spell, as static inline functions the Swift compiler
// inlines into its callers; and the temporary-file bookkeeping of atomic writes that a signal
// handler must reach (async-signal-safe, so in C).
#ifndef CPOINTPAINTSUPPORT_H
#define CPOINTPAINTSUPPORT_H

/// Hints the CPU to bring the cache line holding `address` into the caches for reading soon
/// (`prefetcht0` on x86-64, `prfm pldl1keep` on arm64). Never faults, whatever the address.
static inline __attribute__((always_inline)) void pp_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

// --- Temporary files of atomic writes (TemporaryFiles.c) ---

#include <stddef.h>

/// How many named temporary files `pp_temporary_register` holds at once, and their longest path.
enum { PP_TEMPORARY_SLOTS = 64, PP_TEMPORARY_PATH_MAX = 4096 };

/// Creates an unnamed temporary file in `directory` (Linux `O_TMPFILE`): it has no name until
/// `pp_link_unnamed_temporary` gives it one, and the kernel reclaims it when the process ends
/// first, however it ends. Writes the path that reopens it (`/proc/self/fd/N`) into `path`.
/// Returns the open descriptor, which the caller closes, or -1 with `errno` set where the file
/// system, the kernel or a missing `/proc` does not allow it.
int pp_open_unnamed_temporary(const char *directory, char *path, size_t pathSize);

/// Gives the unnamed temporary reopened by `procPath` the name `name` (`linkat` following the
/// `/proc` link). Returns 0, or -1 with `errno` set.
int pp_link_unnamed_temporary(const char *procPath, const char *name);

/// Adds `path` to the named temporary files that SIGINT, SIGTERM, SIGHUP or SIGQUIT remove
/// before the process ends. Returns a slot for `pp_temporary_unregister`, or -1 when the list is
/// full or the path too long (the file is then left for the next run's clean-up).
int pp_temporary_register(const char *path);

/// Takes a slot from `pp_temporary_register` off the list (a negative slot is ignored).
void pp_temporary_unregister(int slot);

/// Removes every listed file (async-signal-safe); returns how many were removed.
int pp_temporary_remove_all(void);

/// Installs the handler that removes the listed files for each of SIGINT, SIGTERM, SIGHUP and
/// SIGQUIT whose action is the default; then ends the process by the same signal, as the default
/// would have. Signals the program ignores or handles itself are left alone. Call once.
void pp_temporary_install_signal_handlers(void);

#endif
