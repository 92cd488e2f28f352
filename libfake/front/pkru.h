/* pkru.h: the thread's protection-key rights register (PKRU, x86-64), for
 * the key device memory carries (docs/hardening.md "Protection keys").
 * Included by the front (front.h's windows) and by the core's C part
 * (the fault guards of kernel_host.c, the report of sigchain.c).
 *
 * A key's two bits in PKRU are access-disable (2k) and write-disable
 * (2k+1); npu_pk_bits(k) is both. Linux starts every thread with every key
 * but 0 access-disabled (its default init_pkru), and a new thread inherits
 * its creator's PKRU. rdpkru and wrpkru are written as bytes so that no
 * -mpku is needed; they are only executed where a key was allocated, which
 * the kernel allows only on CPUs that have them. */
#ifndef NPUEMU_LIBFAKE_FRONT_PKRU_H
#define NPUEMU_LIBFAKE_FRONT_PKRU_H

#include <stdint.h>

static inline uint32_t npu_pk_bits(int key) { return key > 0 && key < 16 ? 3u << (2 * key) : 0; }

#if defined(__x86_64__)
static inline uint32_t npu_rdpkru(void) {
    uint32_t eax, edx;
    __asm__ volatile(".byte 0x0f, 0x01, 0xee" : "=a"(eax), "=d"(edx) : "c"(0));
    return eax;
}

static inline void npu_wrpkru(uint32_t v) {
    __asm__ volatile(".byte 0x0f, 0x01, 0xef" : : "a"(v), "c"(0), "d"(0) : "memory");
}
#else
static inline uint32_t npu_rdpkru(void) { return 0; }
static inline void npu_wrpkru(uint32_t v) { (void)v; }
#endif

/* npu_pk_open gives the calling thread access to the key of bits (0: no
 * key, nothing to do) and returns what npu_pk_close needs to take it back:
 * 0 when the thread had access already (a nested call: the outer window
 * closes it). */
static inline uint64_t npu_pk_open(uint32_t bits) {
    if (__builtin_expect(bits == 0, 1)) return 0;
    uint32_t p = npu_rdpkru();
    if ((p & bits) == 0) return 0;
    npu_wrpkru(p & ~bits);
    return (1ull << 32) | p;
}

static inline void npu_pk_close(uint64_t saved) {
    if (__builtin_expect(saved != 0, 0)) npu_wrpkru((uint32_t)saved);
}

#endif
