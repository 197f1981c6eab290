// Temporary files of atomic writes: unnamed ones the kernel reclaims, and the list of named ones
// that a fatal signal removes. A signal handler may call only async-signal-safe functions and
// touch only lock-free state, which Swift cannot promise, so this part is C.
#define _GNU_SOURCE
#include "CPointPaintSupport.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int pp_open_unnamed_temporary(const char *directory, char *path, size_t pathSize) {
#if defined(__linux__) && defined(O_TMPFILE)
    int fd = open(directory, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    // The body of a write reopens the file by this name, as any other path.
    int n = snprintf(path, pathSize, "/proc/self/fd/%d", fd);
    if (n < 0 || (size_t)n >= pathSize || access(path, W_OK) != 0) {
        int code = errno ? errno : ENAMETOOLONG;
        close(fd);
        errno = code;
        return -1;
    }
    return fd;
#else
    (void)directory;
    (void)path;
    (void)pathSize;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

int pp_link_unnamed_temporary(const char *procPath, const char *name) {
    return linkat(AT_FDCWD, procPath, AT_FDCWD, name, AT_SYMLINK_FOLLOW);
}

// --- named temporaries removed on a fatal signal ---

/// A slot of the list: free, being changed by its owner, or holding a path to remove.
enum { SLOT_FREE = 0, SLOT_BUSY = 1, SLOT_ARMED = 2 };

static struct {
    _Atomic int state;
    char path[PP_TEMPORARY_PATH_MAX];
} slots[PP_TEMPORARY_SLOTS];

int pp_temporary_register(const char *path) {
    size_t length = strlen(path);
    if (length >= PP_TEMPORARY_PATH_MAX) return -1;
    for (int i = 0; i < PP_TEMPORARY_SLOTS; i++) {
        int expected = SLOT_FREE;
        if (atomic_compare_exchange_strong(&slots[i].state, &expected, SLOT_BUSY)) {
            memcpy(slots[i].path, path, length + 1);
            atomic_store(&slots[i].state, SLOT_ARMED);
            return i;
        }
    }
    return -1;
}

void pp_temporary_unregister(int slot) {
    if (slot < 0 || slot >= PP_TEMPORARY_SLOTS) return;
    atomic_store(&slots[slot].state, SLOT_FREE);
}

int pp_temporary_remove_all(void) {
    int removed = 0;
    for (int i = 0; i < PP_TEMPORARY_SLOTS; i++) {
        if (atomic_load(&slots[i].state) == SLOT_ARMED && unlink(slots[i].path) == 0) removed++;
    }
    return removed;
}

static const int cleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
enum { SIGNAL_COUNT = sizeof cleanupSignals / sizeof cleanupSignals[0] };
static struct sigaction previous[SIGNAL_COUNT];

static void on_fatal_signal(int signal) {
    int saved = errno;
    pp_temporary_remove_all();
    // Back to what was there before (the default: end the process), and the signal again: it
    // stays blocked until this handler returns, then ends the process as it would have.
    for (int i = 0; i < SIGNAL_COUNT; i++) {
        if (cleanupSignals[i] == signal) sigaction(signal, &previous[i], NULL);
    }
    raise(signal);
    errno = saved;
}

void pp_temporary_install_signal_handlers(void) {
    for (int i = 0; i < SIGNAL_COUNT; i++) {
        struct sigaction current;
        if (sigaction(cleanupSignals[i], NULL, &current) != 0) continue;
        // Only where the signal would end the process by default: an ignored signal (nohup's
        // SIGHUP) stays ignored, and a program's own handler stays its own.
        if (current.sa_handler != SIG_DFL || (current.sa_flags & SA_SIGINFO)) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_fatal_signal;
        sigemptyset(&action.sa_mask);
        previous[i] = current;
        sigaction(cleanupSignals[i], &action, NULL);
    }
}
