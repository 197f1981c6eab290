// CRC-32C, the checksum of store files: a slicing-by-8 table reference and an SSE4.2 variant with
// the same signature (see include/PointPaintKernels.h).
#include "PointPaintKernels.h"

#include <pthread.h>
#include <string.h>

// MARK: Reference

/// table[k][b]: the CRC of byte b followed by k zero bytes (slicing by 8).
static uint32_t table[8][256];
static pthread_once_t tableOnce = PTHREAD_ONCE_INIT;

static void makeTable(void) {
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t c = b;
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
        table[0][b] = c;
    }
    for (uint32_t b = 0; b < 256; b++) {
        for (int k = 1; k < 8; k++) table[k][b] = (table[k - 1][b] >> 8) ^ table[0][table[k - 1][b] & 0xFF];
    }
}

uint32_t pointpaint_crc32c_c(uint32_t crc, const void *data, size_t length) {
    pthread_once(&tableOnce, makeTable);
    const uint8_t *p = data;
    uint32_t c = ~crc;
    while (length >= 8) {
        uint32_t lo, hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + 4, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        lo = __builtin_bswap32(lo);
        hi = __builtin_bswap32(hi);
#endif
        lo ^= c;
        c = table[7][lo & 0xFF] ^ table[6][(lo >> 8) & 0xFF] ^ table[5][(lo >> 16) & 0xFF] ^ table[4][lo >> 24] ^
            table[3][hi & 0xFF] ^ table[2][(hi >> 8) & 0xFF] ^ table[1][(hi >> 16) & 0xFF] ^ table[0][hi >> 24];
        p += 8;
        length -= 8;
    }
    while (length--) c = (c >> 8) ^ table[0][(c ^ *p++) & 0xFF];
    return ~c;
}

// MARK: SSE4.2

#if defined(__x86_64__)
#include <cpuid.h>
#include <nmmintrin.h>

int pointpaint_cpu_has_sse42(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    return (c & (1u << 20)) != 0;
}

__attribute__((target("sse4.2")))
uint32_t pointpaint_crc32c_sse42(uint32_t crc, const void *data, size_t length) {
    const uint8_t *p = data;
    uint64_t c = ~crc;
    while (length >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c = _mm_crc32_u64(c, v);
        p += 8;
        length -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (length--) c32 = _mm_crc32_u8(c32, *p++);
    return ~c32;
}
#endif
