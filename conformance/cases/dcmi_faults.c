/* dcmi_faults: a fault that the node records on a chip (what fault
 * injection writes: health word, error code, error_seq) shows in
 * dcmi_get_device_health and dcmi_get_device_errorcode_v2 of that chip
 * only, reaches a dcmi_subscribe_fault_event callback (4-argument form,
 * all chips, empty filter) as a raised event with the chip's logic id,
 * and dcmi_set_device_reset of the idle chip clears it, which the callback
 * sees as recovered (dcmi-api.md §6.11, §6.12, §6.30, §6.31).
 *
 * needs: emulator
 * link: -ldcmi
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "dcmi_interface_api.h"
#include "npuemu/node_format.h"

#define CHIP 1
#define CODE 0x80E01801u

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static struct dcmi_dms_fault_event seen[16];
static int nseen;

static void on_fault(struct dcmi_event *e) {
    pthread_mutex_lock(&mu);
    if (e->type == DCMI_DMS_FAULT_EVENT && nseen < 16) seen[nseen++] = e->event_t.dms_event;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
}

/* wait_event waits (at most 10 s) for the n-th event. */
static struct dcmi_dms_fault_event wait_event(int n) {
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += 10;
    pthread_mutex_lock(&mu);
    while (nseen < n)
        if (pthread_cond_timedwait(&cv, &mu, &dl) != 0) break;
    int got = nseen;
    struct dcmi_dms_fault_event e = seen[n - 1 < 16 ? n - 1 : 15];
    pthread_mutex_unlock(&mu);
    if (got < n) FAIL("fault event %d did not arrive within 10 s", n);
    return e;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "attach") == 0) { /* NPUEMU_NODE from the parent */
        /* a process (the runtime preloaded) that creates the node by using
         * a device, then exits */
        aclError (*init)(const char *) = (aclError(*)(const char *))dlsym(RTLD_DEFAULT, "aclInit");
        aclError (*set)(int32_t) = (aclError(*)(int32_t))dlsym(RTLD_DEFAULT, "aclrtSetDevice");
        aclError (*alloc)(void **, size_t, aclrtMemMallocPolicy) =
            (aclError(*)(void **, size_t, aclrtMemMallocPolicy))dlsym(RTLD_DEFAULT, "aclrtMalloc");
        void *p;
        return init != NULL && set != NULL && alloc != NULL && init(NULL) == ACL_SUCCESS && set(0) == ACL_SUCCESS &&
                       alloc(&p, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS
                   ? 0
                   : 1;
    }
    char node[64];
    snprintf(node, sizeof node, "/tmp/npuemu-dcmi-faults-%d", (int)getpid());
    setenv("NPUEMU_NODE", node, 1);
    unsetenv("NPUEMU_DEVICES"); /* the default node: 8 x Ascend910B3 */
    unsetenv("NPUEMU_SOC");
    unsetenv("NPUEMU_CONFIG");
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        setenv("LD_PRELOAD", "libascendcl.so", 1);
        execl("/proc/self/exe", argv[0], "attach", (char *)NULL);
        _exit(4);
    }
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);

    CHECK_EQ(dcmi_init(), DCMI_OK);
    struct dcmi_event_filter all;
    memset(&all, 0, sizeof all);
    CHECK_EQ(dcmi_subscribe_fault_event(-1, -1, all, on_fault), DCMI_OK);
    CHECK_EQ(dcmi_subscribe_fault_event(-1, -1, all, on_fault), DCMI_ERR_CODE_RESOURCE_OCCUPIED); /* once per process */
    CHECK_EQ(dcmi_subscribe_fault_event(-1, -1, all, NULL), DCMI_ERR_CODE_INVALID_PARAMETER);

    /* record a major fault on the chip, as fault injection does */
    char path[128];
    snprintf(path, sizeof path, "%s/node", node);
    int fd = open(path, O_RDWR);
    CHECK(fd >= 0);
    struct stat sb;
    CHECK(fstat(fd, &sb) == 0);
    unsigned char *b = mmap(NULL, (size_t)sb.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    CHECK(b != MAP_FAILED);
    struct npuemu_node_header *h = (void *)b;
    struct npuemu_node_device *d = (struct npuemu_node_device *)(b + h->devices_off) + CHIP;
    atomic_store((_Atomic uint32_t *)&d->error_codes[0], CODE);
    atomic_store((_Atomic uint32_t *)&d->error_count, 1);
    atomic_store((_Atomic uint32_t *)&d->health, NPUEMU_NODE_HEALTH_IMPORTANT);
    atomic_fetch_add((_Atomic uint64_t *)&d->error_seq, 1);

    unsigned int health = 9;
    CHECK_EQ(dcmi_get_device_health(CHIP, 0, &health), DCMI_OK);
    CHECK_EQ(health, 2);
    CHECK_EQ(dcmi_get_device_health(0, 0, &health), DCMI_OK);
    CHECK_EQ(health, 0);
    int n = 0;
    unsigned int codes[128];
    CHECK_EQ(dcmi_get_device_errorcode_v2(CHIP, 0, &n, codes, 128), DCMI_OK);
    CHECK_EQ(n, 1);
    CHECK_EQ(codes[0], CODE);
    struct dcmi_dms_fault_event e = wait_event(1);
    CHECK_EQ(e.event_id, CODE);
    CHECK_EQ(e.deviceid, CHIP);
    CHECK_EQ(e.assertion, 1);
    CHECK_EQ(e.severity, 2);

    /* reset of the idle chip clears the fault */
    CHECK_EQ(dcmi_set_device_reset(CHIP, 0, INBAND_CHANNEL), DCMI_OK);
    CHECK_EQ(dcmi_get_device_health(CHIP, 0, &health), DCMI_OK);
    CHECK_EQ(health, 0);
    CHECK_EQ(dcmi_get_device_errorcode_v2(CHIP, 0, &n, codes, 128), DCMI_OK);
    CHECK_EQ(n, 0);
    e = wait_event(2);
    CHECK_EQ(e.event_id, CODE);
    CHECK_EQ(e.deviceid, CHIP);
    CHECK_EQ(e.assertion, 0);

    munmap(b, (size_t)sb.st_size);
    close(fd);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", node);
    CHECK(system(cmd) == 0);
    printf("dcmi_faults: ok\n");
    return 0;
}
