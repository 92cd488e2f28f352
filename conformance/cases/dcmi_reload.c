/* dcmi_reload: the Go clients dlopen libdcmi.so, call dcmi_init, dlclose
 * and start again, and then call it from many threads at once (dcmi-api.md
 * §1, §11.14): every cycle initialises and answers the same, and
 * concurrent queries agree.
 *
 * needs: emulator
 * link: -lpthread
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dcmi_interface_api.h"

typedef int (*init_fn)(void);
typedef int (*list_fn)(int *, int *, int);
typedef int (*hbm_fn)(int, int, struct dcmi_hbm_info *);
typedef int (*res_fn)(int, int, struct dcmi_proc_mem_info *, int *);

static hbm_fn hbm;
static res_fn res;
static unsigned long long want_size;

static void *worker(void *arg) {
    int card = (int)(long)arg;
    for (int i = 0; i < 2000; i++) {
        struct dcmi_hbm_info h;
        struct dcmi_proc_mem_info p[32];
        int n = -1;
        if (hbm(card, 0, &h) != DCMI_OK || h.memory_size != want_size) return (void *)1;
        if (res(card, 0, p, &n) != DCMI_OK || n != 0) return (void *)2;
    }
    return NULL;
}

int main(void) {
    char node[64];
    snprintf(node, sizeof node, "/tmp/npuemu-dcmi-reload-%d", (int)getpid()); /* never created */
    setenv("NPUEMU_NODE", node, 1);
    unsetenv("NPUEMU_DEVICES"); /* the default node: 8 x Ascend910B3 */
    unsetenv("NPUEMU_SOC");
    unsetenv("NPUEMU_CONFIG");
    for (int cycle = 0; cycle < 3; cycle++) {
        void *h = dlopen("libdcmi.so", RTLD_LAZY | RTLD_GLOBAL);
        if (h == NULL) FAIL("dlopen: %s", dlerror());
        init_fn init = (init_fn)dlsym(h, "dcmi_init");
        list_fn list = (list_fn)dlsym(h, "dcmi_get_card_list");
        hbm = (hbm_fn)dlsym(h, "dcmi_get_device_hbm_info");
        res = (res_fn)dlsym(h, "dcmi_get_device_resource_info");
        CHECK(init && list && hbm && res);
        int num = 0, ids[64];
        CHECK_EQ(init(), DCMI_OK);
        CHECK_EQ(init(), DCMI_OK);
        CHECK_EQ(list(&num, ids, 64), DCMI_OK);
        CHECK_EQ(num, 8);
        struct dcmi_hbm_info info;
        CHECK_EQ(hbm(0, 0, &info), DCMI_OK);
        if (cycle == 0) want_size = info.memory_size;
        CHECK_EQ(info.memory_size, want_size);
        if (cycle == 2) {
            pthread_t t[8];
            for (long i = 0; i < 8; i++) CHECK(pthread_create(&t[i], NULL, worker, (void *)i) == 0);
            for (int i = 0; i < 8; i++) {
                void *r;
                CHECK(pthread_join(t[i], &r) == 0);
                if (r != NULL) FAIL("thread %d: query %ld failed or disagreed", i, (long)r);
            }
        }
        CHECK_EQ(dlclose(h), 0);
    }
    printf("dcmi_reload: ok\n");
    return 0;
}
