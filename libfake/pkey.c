/* pkey.c: the protection key the front gives device memory
 * (libfake/front/pkey.c, docs/hardening.md "Protection keys"). The front
 * calls npu_pk_set once, after loading the core and before any call into
 * it; the Go side reads the key when it creates a device's memory
 * (platform.go), the fault guards and the fault report read the bits. */
#include "pkey.h"

#include <stddef.h>

int npu_core_pk_key = -1;
uint32_t npu_core_pk;
struct sigaction npu_pk_orig_segv;

__attribute__((visibility("default"))) void npu_pk_set(int key, const struct sigaction *orig_segv) {
    if (orig_segv != NULL) npu_pk_orig_segv = *orig_segv;
    npu_core_pk_key = key;
    npu_core_pk = npu_pk_bits(key);
}
