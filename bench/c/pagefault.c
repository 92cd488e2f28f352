/* pagefault.c: what one page fault costs on this host: a fresh anonymous
 * mapping of 2000 pages (no huge pages) touched once per page, three
 * times; prints "page_fault_us VALUE us" for each. The first launch loop
 * of a process pays hundreds of faults (docs/benchmarks.md, "Twelfth
 * session").   cc -O2 bench/c/pagefault.c -o pagefault && ./pagefault */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(void) {
    enum { PAGES = 2000 };
    size_t n = (size_t)4096 * PAGES;
    for (int r = 0; r < 3; r++) {
        char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            perror("mmap");
            return 1;
        }
        madvise(p, n, MADV_NOHUGEPAGE);
        double t0 = now_ns();
        for (size_t i = 0; i < n; i += 4096) p[i] = 1;
        printf("page_fault_us %.2f us\n", (now_ns() - t0) / PAGES / 1e3);
        munmap(p, n);
    }
    return 0;
}
