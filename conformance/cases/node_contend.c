/* node_contend: processes on one device share its AI Cores (issue #12
 * point 3, docs/node.md "Contention between processes"). While process A
 * holds every cube core with its kernels, process B's kernel waits: on the
 * device clock (each process's event timestamps plus its clock base in the
 * node) B's kernel starts after A's release the cores. The node's
 * utilization counters hold both processes' busy time. A process that
 * opens the device while another works starts its clock after that work.
 * A holder killed with kill -9 releases its cores once the node reclaims
 * it.
 *
 * needs: emulator
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "node_proc.h"
#include "npuemu/node_format.h"
#include "case_kernel.h"

/* tickc: no work, 1 ms of virtual time per block on a cube core. */
static const char *kernel_src =
    "#include \"%s/emu/include/npuemu/kernel.h\"\n"
    "static void tickc(const npuemu_kernel_ctx *ctx) { (void)ctx; }\n"
    "NPUEMU_KERNEL_TABLE(\n"
    "    NPUEMU_KERNEL(tickc, NPUEMU_AICORE, .ns_per_block = 1000000),\n"
    ")\n";

#define MS 1000000ull /* ns */

static aclrtStream stream;
static aclrtFuncHandle tickc;
static uint32_t cubes;

/* setup initialises the runtime, device 0, a stream and the kernel. */
static void setup(void) {
    char so[4096];
    build_case_kernel(__FILE__, kernel_src, so, sizeof so);
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtCreateStream(&stream));
    aclrtBinHandle bin;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    CHECK_OK(aclrtBinaryGetFunction(bin, "tickc", &tickc));
    CHECK_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &cubes));
    CHECK(cubes > 0);
}

static void launch(uint32_t blocks) {
    aclrtArgsHandle a;
    CHECK_OK(aclrtKernelArgsInit(tickc, &a));
    CHECK_OK(aclrtKernelArgsFinalize(a));
    CHECK_OK(aclrtLaunchKernelWithConfig(tickc, blocks, stream, NULL, a, NULL));
}

static aclrtEvent record(void) {
    aclrtEvent e;
    CHECK_OK(aclrtCreateEvent(&e));
    CHECK_OK(aclrtRecordEvent(e, stream));
    return e;
}

/* ts_ns is e's timestamp on this process's virtual clock, in ns. */
static uint64_t ts_ns(aclrtEvent e) {
    uint64_t us = 0;
    CHECK_OK(aclrtEventGetTimestamp(e, &us));
    return us * 1000;
}

/* The node file, read-only, as a DCMI client reads it. */
static const unsigned char *node;
static size_t node_size;

static void map_node(void) {
    const char *name = getenv("NPUEMU_NODE");
    char path[4096];
    if (name == NULL || name[0] == 0) snprintf(path, sizeof path, "/dev/shm/npuemu-node/node");
    else if (name[0] == '/') snprintf(path, sizeof path, "%s/node", name);
    else snprintf(path, sizeof path, "/dev/shm/npuemu-%s/node", name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    CHECK(fd >= 0);
    struct stat st;
    CHECK(fstat(fd, &st) == 0);
    node_size = (size_t)st.st_size;
    node = mmap(NULL, node_size, PROT_READ, MAP_SHARED, fd, 0);
    CHECK(node != MAP_FAILED);
    close(fd);
    const struct npuemu_node_header *h = (const void *)node;
    CHECK_EQ(h->version, NPUEMU_NODE_VERSION);
}

static const struct npuemu_node_header *hdr(void) { return (const void *)node; }

static const volatile struct npuemu_node_device *dev0(void) {
    return (const void *)(node + hdr()->devices_off);
}

/* slot_of returns the live slot of pid. */
static int slot_of(pid_t pid) {
    for (uint32_t i = 0; i < hdr()->max_procs; i++) {
        const struct npuemu_node_proc *p = (const void *)(node + hdr()->procs_off + (uint64_t)i * hdr()->proc_size);
        if (p->state == NPUEMU_NODE_PROC_LIVE && p->pid == pid) return (int)i;
    }
    return -1;
}

static const volatile struct npuemu_node_proc *proc(int slot) {
    return (const void *)(node + hdr()->procs_off + (uint64_t)slot * hdr()->proc_size);
}

/* B: opens the device, then launches one kernel on every cube core when
 * told, and reports its events' timestamps. */
static void child_b(void) {
    char line[64];
    setup();
    send_line(4, "ready");
    recv_line(3, line, sizeof line);
    aclrtEvent b0 = record();
    launch(cubes);
    aclrtEvent b1 = record();
    CHECK_OK(aclrtSynchronizeStream(stream));
    send_line(4, "%llu %llu", (unsigned long long)ts_ns(b0), (unsigned long long)ts_ns(b1));
    recv_line(3, line, sizeof line); /* bye */
    CHECK_OK(aclrtDestroyStream(stream));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
}

/* C: holds every cube core for 1000 ms of device time, then waits to be
 * killed. */
static void child_c(void) {
    char line[64];
    setup();
    launch(1000 * cubes);
    send_line(4, "held");
    recv_line(3, line, sizeof line); /* never answered: the parent kills us */
}

int main(int argc, char **argv) {
    if (argc > 1) {
        if (strcmp(argv[1], "b") == 0) child_b();
        else child_c();
        return 0;
    }
    char line[256];
    setup();
    map_node();
    int me = slot_of(getpid());
    CHECK(me >= 0);

    /* 1. A (this process) holds every cube core for 20 ms while B, which
     * opened the device before, launches. */
    struct child b = spawn_child("b");
    recv_line(b.from, line, sizeof line);
    int bs = slot_of(b.pid);
    CHECK(bs >= 0);
    CHECK_EQ(dev0()->core_users, 2);
    aclrtEvent a0 = record();
    for (int i = 0; i < 20; i++) launch(cubes);
    aclrtEvent a1 = record();
    send_line(b.to, "go");
    CHECK_OK(aclrtSynchronizeStream(stream));
    recv_line(b.from, line, sizeof line);
    unsigned long long b0 = 0, b1 = 0;
    CHECK(sscanf(line, "%llu %llu", &b0, &b1) == 2);
    float a_ms = -1;
    CHECK_OK(aclrtEventElapsedTime(&a_ms, a0, a1));
    CHECK(a_ms >= 20.0f && a_ms < 20.1f); /* A alone on its cores: no wait */

    uint64_t base_a = proc(me)->clock_base_ns[0], base_b = proc(bs)->clock_base_ns[0];
    uint64_t a_end = base_a + ts_ns(a1);       /* A's last kernel ended (plus a record) */
    uint64_t b_start = base_b + b1 - 1 * MS - 2000; /* B's kernel began: its end less 1 ms and two task overheads */
    if (b_start + 5000 < a_end)
        FAIL("B's kernel started at device time %llu ns, before A released the cores at %llu ns",
             (unsigned long long)b_start, (unsigned long long)a_end);
    CHECK(b1 - b0 >= 15 * MS); /* B waited for most of A's 20 ms, on its own clock */

    /* 2. The node's utilization counters hold both processes' work. */
    uint64_t busy_a = proc(me)->aicore_busy_ns[0], busy_b = proc(bs)->aicore_busy_ns[0];
    CHECK_EQ(busy_a, 20ull * cubes * MS);
    CHECK_EQ(busy_b, (uint64_t)cubes * MS);
    CHECK(dev0()->busy_ns[NPUEMU_NODE_ENGINE_AICORE] >= busy_a + busy_b);
    /* clock_ns is the device clock: B's kernel, the last work, ended at
     * base_b + b1 (less a record), within the 100 us the clock may lag;
     * over it the cube cores were busy with A's and B's work only. */
    uint64_t clock = dev0()->clock_ns;
    CHECK(clock <= base_b + b1 && clock + 100000 + 2000 >= base_b + b1);
    CHECK((busy_a + busy_b) / cubes <= clock);
    send_line(b.to, "bye");
    CHECK_EQ(wait_child(b), 0);

    /* 3. A, alone again, works 10 ms; C, which opens the device after,
     * starts its clock after that work (all but its last millisecond at
     * most, docs/node.md). */
    for (int i = 0; i < 10; i++) launch(cubes);
    aclrtEvent a2 = record();
    struct child c = spawn_child("c");
    recv_line(c.from, line, sizeof line);
    int cs = slot_of(c.pid);
    CHECK(cs >= 0);
    CHECK_OK(aclrtSynchronizeStream(stream));
    uint64_t a2_end = base_a + ts_ns(a2);
    if (proc(cs)->clock_base_ns[0] + 1 * MS + 5000 < a2_end)
        FAIL("C's clock starts at device time %llu ns, before A's work stamped earlier ended at %llu ns",
             (unsigned long long)proc(cs)->clock_base_ns[0], (unsigned long long)a2_end);

    /* 4. C holds every cube core for 1000 ms and is killed: once the node
     * reclaims it, A's kernel no longer waits. */
    uint64_t held = NPUEMU_NODE_HOLD_UNTIL(dev0()->core_hold[cs]);
    CHECK(held >= proc(cs)->clock_base_ns[0] + 1000 * MS);
    CHECK_EQ(NPUEMU_NODE_HOLD_CUBE(dev0()->core_hold[cs]), cubes);
    CHECK_EQ(kill(c.pid, SIGKILL), 0);
    CHECK_EQ(wait_child(c), -SIGKILL);
    size_t freeb = 0, total = 0;
    for (int i = 0; i < 150 && dev0()->core_users != 1; i++) {
        CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total)); /* touches the node: reclaims */
        sleep_ms(10);
    }
    CHECK_EQ(dev0()->core_users, 1);
    CHECK_EQ(dev0()->core_hold[cs], 0);
    aclrtEvent e0 = record();
    launch(cubes);
    aclrtEvent e1 = record();
    CHECK_OK(aclrtSynchronizeStream(stream));
    float ms = -1;
    CHECK_OK(aclrtEventElapsedTime(&ms, e0, e1));
    if (ms > 1.1f) FAIL("after the holder's death A's 1 ms kernel took %.3f ms: its cores were not released", (double)ms);

    munmap((void *)node, node_size);
    CHECK_OK(aclrtDestroyStream(stream));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
