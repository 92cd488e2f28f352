/* floor.c: the crossing floor (bench/floor.sh builds it against its Go
 * library). Prints the median of 7 runs of 2 000 000 calls: a C→Go call,
 * and a C→Go call that calls one C function back from Go. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "libfloor.h"

static volatile int x;
static void k(void) { x++; }

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    double d = *(const double *)a - *(const double *)b;
    return (d > 0) - (d < 0);
}

int main(void) {
    enum { N = 2000000, R = 7 };
    double go[R], back[R];
    for (int r = 0; r < R; r++) {
        double t0 = now();
        for (int i = 0; i < N; i++) floorCross(k, 0);
        double t1 = now();
        for (int i = 0; i < N; i++) floorCross(k, 1);
        double t2 = now();
        go[r] = (t1 - t0) / N;
        back[r] = (t2 - t1) / N;
    }
    qsort(go, R, sizeof go[0], cmp);
    qsort(back, R, sizeof back[0], cmp);
    printf("c_to_go_call_ns %.1f\nc_to_go_to_c_call_ns %.1f\n", go[R / 2], back[R / 2]);
    return 0;
}
