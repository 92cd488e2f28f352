/* nodewindow.c: reserves the device-memory window of the node directory
 * (npuemu/node_format.h, docs/node.md) before the Go runtime starts, so that
 * every process can map each device's memory file at the same address.
 * Priority 101 runs it ahead of the Go runtime's constructor, as for the
 * managed window (svmwindow.c). */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/mman.h>

#include "npuemu/node_format.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

uintptr_t npu_node_window_base;

__attribute__((constructor(101))) static void npu_reserve_node_window(void) {
    void *want = (void *)NPUEMU_NODE_WINDOW_BASE;
    void *p = mmap(want, NPUEMU_NODE_WINDOW_SIZE, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == want) {
        npu_node_window_base = (uintptr_t)p;
    } else if (p != MAP_FAILED) {
        munmap(p, NPUEMU_NODE_WINDOW_SIZE); /* an old kernel took the address as a hint */
    }
}
