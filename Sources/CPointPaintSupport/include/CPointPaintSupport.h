// Small compiler built-ins Swift cannot spell, as static inline functions the Swift compiler
// inlines into its callers.
#ifndef CPOINTPAINTSUPPORT_H
#define CPOINTPAINTSUPPORT_H

/// Hints the CPU to bring the cache line holding `address` into the caches for reading soon
/// (`prefetcht0` on x86-64, `prfm pldl1keep` on arm64). Never faults, whatever the address.
static inline __attribute__((always_inline)) void pp_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
