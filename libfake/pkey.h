/* pkey.h: the protection key of device memory in the core (pkey.c). */
#ifndef NPUEMU_LIBFAKE_PKEY_H
#define NPUEMU_LIBFAKE_PKEY_H

#include <signal.h>
#include <stdint.h>

#include "front/pkru.h"

/* npu_core_pk_key is the key (-1: none), npu_core_pk its PKRU bits (0:
 * none), npu_pk_orig_segv the program's SIGSEGV action from before the
 * core loaded (where a host thread's fault on device memory goes:
 * sigchain.c); all written once by npu_pk_set before any call into the
 * core. */
extern int npu_core_pk_key;
extern uint32_t npu_core_pk;
extern struct sigaction npu_pk_orig_segv;
void npu_pk_set(int key, const struct sigaction *orig_segv);

#endif
