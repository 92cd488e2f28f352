/* svmwindow.c: reserves the documented managed-memory window before the Go
 * runtime starts (see svm/window.go for why). Priority 101 puts this
 * constructor ahead of the unprioritised .init_array entry that starts the
 * Go runtime of this c-shared library. */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/mman.h>

#include "svmwindow.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

uintptr_t npu_svm_window_base;

__attribute__((constructor(101))) static void npu_reserve_svm_window(void) {
    void *want = (void *)NPU_SVM_WINDOW_BASE;
    void *p = mmap(want, NPU_SVM_WINDOW_SIZE, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == want) {
        npu_svm_window_base = (uintptr_t)p;
    } else if (p != MAP_FAILED) {
        munmap(p, NPU_SVM_WINDOW_SIZE); /* an old kernel took the address as a hint */
    }
}
