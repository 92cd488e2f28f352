/* node_format_reader: a plain C reader of the node directory, as libdcmi
 * and npu-smi read it (npuemu/node_format.h, docs/node.md): the header's
 * checks pass, the device record holds the SoC and the memory in use, the
 * process's slot holds its pid and per-device bytes and is alive by its
 * liveness lock, and the utilization counters grew with the work done.
 *
 * needs: emulator
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "node_proc.h"
#include "npuemu/node_format.h"

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    void *d = NULL;
    CHECK_OK(aclrtMalloc(&d, 64 * MiB, ACL_MEM_MALLOC_HUGE_ONLY));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    for (int i = 0; i < 10; i++) CHECK_OK(aclrtMemsetAsync(d, 64 * MiB, i, 64 * MiB, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    size_t freeb = 0, total = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total));
    char soc[64];
    snprintf(soc, sizeof soc, "%s", aclrtGetSocName());

    const char *name = getenv("NPUEMU_NODE");
    char path[4096];
    if (name == NULL || name[0] == 0) snprintf(path, sizeof path, "/dev/shm/npuemu-node/node");
    else if (name[0] == '/') snprintf(path, sizeof path, "%s/node", name);
    else snprintf(path, sizeof path, "/dev/shm/npuemu-%s/node", name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    CHECK(fd >= 0);
    struct stat st;
    CHECK(fstat(fd, &st) == 0);
    CHECK((st.st_mode & 0777) == 0600); /* owner only */
    const unsigned char *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    CHECK(m != MAP_FAILED);
    const struct npuemu_node_header *h = (const void *)m;
    CHECK(h->magic == NPUEMU_NODE_MAGIC);
    CHECK_EQ(h->version, NPUEMU_NODE_VERSION);
    CHECK_EQ(h->file_size, st.st_size);
    CHECK_EQ(h->header_size, sizeof *h);
    CHECK(h->header_sum == npuemu_node_sum(h, offsetof(struct npuemu_node_header, header_sum)));
    CHECK(strcmp(h->soc_name, soc) == 0);

    const struct npuemu_node_device *dev = (const void *)(m + h->devices_off);
    CHECK(dev->static_sum == npuemu_node_sum(dev, offsetof(struct npuemu_node_device, static_sum)));
    CHECK_EQ(dev->hbm_usable, total);
    CHECK_EQ(dev->hbm_used, total - freeb);
    CHECK(dev->hbm_total >= dev->hbm_usable);
    CHECK_EQ(dev->hbm_os_bytes, dev->hbm_total - dev->hbm_usable);
    CHECK(dev->aicore_count > 0);
    CHECK(dev->busy_ns[NPUEMU_NODE_ENGINE_SDMA] > 0); /* the memsets */
    CHECK(dev->clock_ns > 0);

    int found = 0;
    for (uint32_t i = 0; i < h->max_procs; i++) {
        const struct npuemu_node_proc *p = (const void *)(m + h->procs_off + (uint64_t)i * h->proc_size);
        if (p->state != NPUEMU_NODE_PROC_LIVE || p->pid != getpid()) continue;
        found++;
        CHECK_EQ(p->hbm_bytes[0], total - freeb);
        CHECK(p->devices_open & 1);
        CHECK(p->start_time > 0);
        /* Alive: its liveness lock is held (tested on our own descriptor,
         * another open file description than the runtime's). */
        struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = (off_t)NPUEMU_NODE_LOCK_SLOT(i), .l_len = 1};
        CHECK(fcntl(fd, F_OFD_GETLK, &lk) == 0);
        CHECK(lk.l_type != F_UNLCK);
    }
    CHECK_EQ(found, 1);

    munmap((void *)m, (size_t)st.st_size);
    close(fd);
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
