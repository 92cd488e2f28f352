/*
 * The node directory as a read-only client sees it (docs/node.md,
 * emu/include/npuemu/node_format.h). The node file is mapped read-only once
 * and re-mapped when it is replaced; every query copies what it needs
 * between two equal, even reads of tables_seq (the seqlock) and tests each
 * live-marked slot's liveness lock with F_OFD_GETLK, so a dead process is
 * never listed, whether or not a survivor has reclaimed it yet. Writes
 * (vNPUs, reset) take the table lock on a separate read-write descriptor.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "npu.h"
#include "npuemu/node_format.h"

int npu_cfg_from_env(struct npu_cfg *c, char *err, size_t errlen);

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER; /* guards everything below */
static int cfg_loaded; /* cfg holds the environment's configuration */
static int ready;      /* npu_init succeeded; cfg is final */
static struct npu_cfg cfg;

/* The current mapping of the node file; replaced, never unmapped while a
 * reader may use it (a replaced mapping is kept: nodes are rarely replaced). */
struct mapping {
    const unsigned char *base;
    size_t size;
    int fd;        /* read-only descriptor: OFD lock tests */
    dev_t dev;
    ino_t ino;
};
static struct mapping *_Atomic cur;
static uint64_t my_pid_ns;
static _Thread_local char last_err[512];

const char *npu_last_error(void) { return last_err; }

static void node_dir(char *out, size_t n) {
    const char *v = getenv("NPUEMU_NODE");
    if (v == NULL || *v == '\0') snprintf(out, n, "/dev/shm/npuemu-node");
    else if (v[0] == '/') snprintf(out, n, "%s", v);
    else snprintf(out, n, "/dev/shm/npuemu-%s", v);
}

static uint64_t ino_of(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

/* validate applies docs/node.md's reader checks to a mapped node file. */
static int validate(const unsigned char *b, size_t size, const char *path, char *err, size_t n) {
    const struct npuemu_node_header *h = (const void *)b;
    if (size < sizeof *h || h->magic != NPUEMU_NODE_MAGIC) {
        snprintf(err, n, "%s: not an npuemu node file (bad magic or shorter than its header)", path);
        return -1;
    }
    if (h->version != NPUEMU_NODE_VERSION) {
        snprintf(err, n, "%s: node format version %u, this library reads version %u", path, h->version,
                 NPUEMU_NODE_VERSION);
        return -1;
    }
    if (h->header_size != sizeof *h || h->device_size != sizeof(struct npuemu_node_device) ||
        h->proc_size != sizeof(struct npuemu_node_proc) || h->vnpu_size != sizeof(struct npuemu_node_vnpu) ||
        h->file_size != size || h->device_count < 1 || h->device_count > NPUEMU_NODE_MAX_DEVICES ||
        h->max_procs > NPUEMU_NODE_MAX_PROCS || h->max_vnpus > NPUEMU_NODE_MAX_VNPUS ||
        h->devices_off + (uint64_t)h->device_count * sizeof(struct npuemu_node_device) > size ||
        h->procs_off + (uint64_t)h->max_procs * sizeof(struct npuemu_node_proc) > size ||
        h->vnpus_off + (uint64_t)h->device_count * h->max_vnpus * sizeof(struct npuemu_node_vnpu) > size) {
        snprintf(err, n, "%s: node file truncated or its sizes do not match format version %u", path,
                 NPUEMU_NODE_VERSION);
        return -1;
    }
    if (npuemu_node_sum(h, offsetof(struct npuemu_node_header, header_sum)) != h->header_sum) {
        snprintf(err, n, "%s: node header checksum mismatch (corrupt file)", path);
        return -1;
    }
    const struct npuemu_node_device *d = (const void *)(b + h->devices_off);
    for (uint32_t i = 0; i < h->device_count; i++) {
        if (npuemu_node_sum(&d[i], offsetof(struct npuemu_node_device, static_sum)) != d[i].static_sum) {
            snprintf(err, n, "%s: device %u record checksum mismatch (corrupt file)", path, i);
            return -1;
        }
    }
    if (h->state != NPUEMU_NODE_STATE_READY) {
        snprintf(err, n, "%s: node file is not ready (state %u): a damaged file", path, h->state);
        return -1;
    }
    return 0;
}

/* map_node returns the current mapping, (re)mapping the node file when it
 * appeared or was replaced; NULL when there is no node (err empty) or it is
 * unusable (err says why). */
static struct mapping *map_node(char *err, size_t n) {
    char path[1100];
    snprintf(path, sizeof path, "%s/node", cfg.node_dir);
    err[0] = '\0';
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno != ENOENT) snprintf(err, n, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct mapping *m = atomic_load_explicit(&cur, memory_order_acquire);
    if (m != NULL && m->dev == st.st_dev && m->ino == st.st_ino) return m;
    pthread_mutex_lock(&mu);
    m = atomic_load_explicit(&cur, memory_order_acquire);
    if (m != NULL && m->dev == st.st_dev && m->ino == st.st_ino) {
        pthread_mutex_unlock(&mu);
        return m;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct mapping *nm = NULL;
    if (fd < 0) {
        snprintf(err, n, "%s: cannot open the node: %s", path, strerror(errno));
    } else if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(struct npuemu_node_header)) {
        snprintf(err, n, "%s: node file truncated (%lld bytes)", path, (long long)st.st_size);
        close(fd);
    } else {
        void *b = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
        if (b == MAP_FAILED) {
            snprintf(err, n, "%s: mmap: %s", path, strerror(errno));
            close(fd);
        } else if (validate(b, (size_t)st.st_size, path, err, n) != 0) {
            munmap(b, (size_t)st.st_size);
            close(fd);
        } else {
            nm = calloc(1, sizeof *nm);
            nm->base = b, nm->size = (size_t)st.st_size, nm->fd = fd, nm->dev = st.st_dev, nm->ino = st.st_ino;
            atomic_store_explicit(&cur, nm, memory_order_release);
        }
    }
    pthread_mutex_unlock(&mu);
    return nm;
}

static const struct npuemu_node_header *hdr(const struct mapping *m) { return (const void *)m->base; }

static const struct npuemu_node_device *dev_rec(const struct mapping *m, int i) {
    return (const struct npuemu_node_device *)(m->base + hdr(m)->devices_off) + i;
}

static const struct npuemu_node_proc *proc_rec(const struct mapping *m, int i) {
    return (const struct npuemu_node_proc *)(m->base + hdr(m)->procs_off) + i;
}

static const struct npuemu_node_vnpu *vnpu_rec(const struct mapping *m, int dev, int k) {
    return (const struct npuemu_node_vnpu *)(m->base + hdr(m)->vnpus_off) + (size_t)dev * hdr(m)->max_vnpus + k;
}

#define LOAD64(p) atomic_load_explicit((_Atomic uint64_t *)(uintptr_t)(p), memory_order_acquire)
#define LOAD32(p) atomic_load_explicit((_Atomic uint32_t *)(uintptr_t)(p), memory_order_acquire)

/* npu_init loads the configuration (once), then validates the node if it
 * exists and takes the SoC and device count from it. The library is ready
 * only when both succeeded; cfg is never changed once ready is set, so
 * readers that saw npu_ready() need no lock. */
int npu_init(char *err, size_t errlen) {
    pthread_mutex_lock(&mu);
    if (ready) {
        pthread_mutex_unlock(&mu);
        return 0;
    }
    if (!cfg_loaded) {
        struct npu_cfg c;
        memset(&c, 0, sizeof c);
        node_dir(c.node_dir, sizeof c.node_dir);
        if (npu_cfg_from_env(&c, err, errlen) != 0) {
            pthread_mutex_unlock(&mu);
            return -1;
        }
        cfg = c;
        cfg_loaded = 1;
        my_pid_ns = ino_of("/proc/self/ns/pid");
    }
    pthread_mutex_unlock(&mu);
    char e[512];
    struct mapping *m = map_node(e, sizeof e);
    if (m == NULL && e[0] != '\0') {
        snprintf(err, errlen, "%s", e);
        return -1;
    }
    pthread_mutex_lock(&mu);
    if (m != NULL && !ready) {
        /* A node that exists decides the SoC and the device count. */
        const struct npuemu_node_header *h = hdr(m);
        char name[33];
        memcpy(name, h->soc_name, 32);
        name[32] = '\0';
        const struct npu_soc *s = npu_soc_lookup(name);
        if (s == NULL) {
            pthread_mutex_unlock(&mu);
            snprintf(err, errlen, "%s/node: unknown SoC %s", cfg.node_dir, name);
            return -1;
        }
        cfg.soc = s;
        cfg.ndev = (int)h->device_count;
        cfg.usable_bytes = dev_rec(m, 0)->hbm_usable;
        snprintf(cfg.source, sizeof cfg.source, "node %s", cfg.node_dir);
    }
    __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&mu);
    return 0;
}

int npu_ready(void) { return __atomic_load_n(&ready, __ATOMIC_ACQUIRE); }

const struct npu_cfg *npu_config(void) { return &cfg; }

/* proc_start_time reads field 22 of /proc/<pid>/stat; 0 when unreadable. */
static uint64_t proc_start_time(int pid) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t r = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (r <= 0) return 0;
    buf[r] = '\0';
    char *p = strrchr(buf, ')'); /* comm may hold spaces; fields restart after ')' */
    unsigned long long v = 0;
    for (int field = 2; field < 22 && p != NULL; field++) p = strchr(p + 1, ' ');
    if (p == NULL || sscanf(p + 1, "%llu", &v) != 1) return 0;
    return v;
}

/* A verified (pid, start time) per slot: re-read /proc at most every
 * VERIFY_NS; in between the pid's existence (kill 0) is enough, since the
 * slot lock proves a holder alive and only a forked child could hold it
 * for a dead owner whose pid would then have to be reused within that time. */
#define VERIFY_NS 100000000ull
static struct verified {
    int pid;
    uint64_t start, at;
} verified[NPUEMU_NODE_MAX_PROCS];
static pthread_mutex_t verified_mu = PTHREAD_MUTEX_INITIALIZER;

static uint64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* slot_alive: the owner holds its liveness lock and, in our pid namespace,
 * the pid still shows the recorded start time (a forked child shares the
 * parent's lock but not its pid). */
static int slot_alive(const struct mapping *m, int i, int pid, uint64_t start, uint64_t pid_ns) {
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = (off_t)NPUEMU_NODE_LOCK_SLOT(i), .l_len = 1};
    if (fcntl(m->fd, F_OFD_GETLK, &fl) != 0 || fl.l_type == F_UNLCK) return 0;
    if (pid_ns != my_pid_ns || start == 0) return 1;
    uint64_t now = mono_ns();
    pthread_mutex_lock(&verified_mu);
    struct verified *v = &verified[i];
    int fresh = v->pid == pid && v->start == start && now - v->at < VERIFY_NS;
    pthread_mutex_unlock(&verified_mu);
    if (fresh) return kill(pid, 0) == 0 || errno == EPERM;
    if (proc_start_time(pid) != start) return 0;
    pthread_mutex_lock(&verified_mu);
    v->pid = pid, v->start = start, v->at = now;
    pthread_mutex_unlock(&verified_mu);
    return 1;
}

/* Utilization from two samples of the node's counters. The library keeps
 * the last sample per device and takes a new one when the device clock
 * moved by at least UTIL_MIN_NS since it (so a burst of queries, as
 * npu-smi makes, reads one consistent figure), or when UTIL_IDLE_NS of
 * host time passed (so a device whose clock stopped reads 0 % within a
 * second). Figures are busy time over elapsed device time, per unit. */
#define UTIL_MIN_NS 10000000ull    /* 10 ms of device time */
#define UTIL_IDLE_NS 1000000000ull /* 1 s of host time */
struct util_sample {
    uint64_t clock, busy[3], at;
    unsigned int pct[3];
};
static struct util_sample samples[NPUEMU_NODE_MAX_DEVICES];
static pthread_mutex_t sample_mu = PTHREAD_MUTEX_INITIALIZER;

static void utilization(const struct npuemu_node_device *r, int dev, struct npu_dev *d) {
    uint64_t clock = LOAD64(&r->clock_ns);
    uint64_t busy[3];
    unsigned units[3] = {r->aicore_count, r->vector_count, r->aicpu_count};
    for (int e = 0; e < 3; e++) busy[e] = LOAD64(&r->busy_ns[e]);
    uint64_t now = mono_ns();
    pthread_mutex_lock(&sample_mu);
    struct util_sample *s = &samples[dev];
    uint64_t dc = clock - s->clock;
    if (clock < s->clock) dc = 0, s->clock = clock; /* a new node: start over */
    if (dc >= UTIL_MIN_NS || s->at == 0 || now - s->at >= UTIL_IDLE_NS) {
        for (int e = 0; e < 3; e++) {
            uint64_t db = busy[e] - s->busy[e];
            uint64_t p = (dc && units[e]) ? (db * 100 + dc * units[e] / 2) / (dc * units[e]) : 0;
            s->pct[e] = p > 100 ? 100 : (unsigned)p;
        }
        s->clock = clock;
        memcpy(s->busy, busy, sizeof busy);
        s->at = now;
    }
    d->util_aicore = s->pct[0], d->util_vector = s->pct[1], d->util_aicpu = s->pct[2];
    pthread_mutex_unlock(&sample_mu);
}

/* no_node_device describes device dev of a node nobody created yet. */
static void no_node_device(struct npu_dev *d) {
    memset(d, 0, offsetof(struct npu_dev, proc));
    d->nvdev = 0;
    d->hbm_total = cfg.soc->hbm_bytes;
    d->hbm_reserved = cfg.soc->hbm_bytes > cfg.usable_bytes ? cfg.soc->hbm_bytes - cfg.usable_bytes : 0;
}

int npu_read_device(int dev, struct npu_dev *d) {
    char err[512];
    struct mapping *m = map_node(err, sizeof err);
    if (m == NULL) {
        if (err[0] != '\0') {
            snprintf(last_err, sizeof last_err, "%s", err);
            return -1;
        }
        no_node_device(d);
        return 0;
    }
    const struct npuemu_node_header *h = hdr(m);
    if (dev < 0 || (uint32_t)dev >= h->device_count) {
        snprintf(last_err, sizeof last_err, "device %d: the node has %u devices", dev, h->device_count);
        return -1;
    }
    const struct npuemu_node_device *r = dev_rec(m, dev);
    memset(d, 0, offsetof(struct npu_dev, proc));
    d->node_present = 1;
    d->hbm_total = r->hbm_total;
    d->hbm_reserved = r->hbm_os_bytes;
    /* health and error codes: consistent when error_seq did not move */
    for (int tries = 0; tries < 100; tries++) {
        uint64_t s1 = LOAD64(&r->error_seq);
        d->health = LOAD32(&r->health);
        uint32_t n = LOAD32(&r->error_count);
        if (n > NPUEMU_NODE_MAX_ERRORS) n = NPUEMU_NODE_MAX_ERRORS;
        for (uint32_t i = 0; i < n; i++) d->err[i] = LOAD32(&r->error_codes[i]);
        d->nerr = (int)n;
        if (LOAD64(&r->error_seq) == s1) break;
    }
    utilization(r, dev, d);

    /* processes and vNPUs: copied under the seqlock, liveness tested after */
    struct cand {
        int slot, pid;
        uint64_t start, pid_ns, bytes;
        int open;
    } c[NPUEMU_NODE_MAX_PROCS];
    int nc = 0;
    for (int tries = 0;; tries++) {
        uint64_t s1 = LOAD64(&h->tables_seq);
        if (s1 & 1) {
            if (tries > 100000) break;
            sched_yield();
            continue;
        }
        nc = 0;
        for (uint32_t i = 0; i < h->max_procs; i++) {
            const struct npuemu_node_proc *p = proc_rec(m, (int)i);
            if (LOAD32(&p->state) != NPUEMU_NODE_PROC_LIVE) continue;
            uint64_t bytes = LOAD64(&p->hbm_bytes[dev]);
            int open = (int)((LOAD64(&p->devices_open) >> dev) & 1);
            if (bytes == 0 && !open) continue;
            c[nc].slot = (int)i, c[nc].pid = p->pid, c[nc].start = p->start_time, c[nc].pid_ns = p->pid_ns;
            c[nc].bytes = bytes, c[nc].open = open;
            nc++;
        }
        d->nvdev = 0;
        for (uint32_t k = 0; k < h->max_vnpus && d->nvdev < NPU_MAX_VDEVS; k++) {
            const struct npuemu_node_vnpu *v = vnpu_rec(m, dev, (int)k);
            if (LOAD32(&v->state) != NPUEMU_NODE_ENTRY_LIVE) continue;
            struct npu_vdev *o = &d->vdev[d->nvdev++];
            o->id = v->vdev_id;
            memcpy(o->tmpl, v->template_name, sizeof o->tmpl);
            o->tmpl[sizeof o->tmpl - 1] = '\0';
            o->aicores = (int)v->aicore_count, o->aicpus = (int)v->aicpu_count;
            o->mem_bytes = v->hbm_bytes;
            o->used_bytes = LOAD64(&v->hbm_used);
        }
        if (LOAD64(&h->tables_seq) == s1) break;
    }
    d->nproc = 0;
    for (int i = 0; i < nc; i++) {
        if (!slot_alive(m, c[i].slot, c[i].pid, c[i].start, c[i].pid_ns)) continue;
        d->hbm_used += c[i].bytes;
        /* A pid of another pid namespace means nothing here: its memory
         * counts, the process is not listed (as DCMI in a container). */
        if (c[i].pid_ns != my_pid_ns || d->nproc >= NPU_MAX_PROCS) continue;
        d->proc[d->nproc].pid = c[i].pid;
        d->proc[d->nproc].bytes = c[i].bytes;
        d->nproc++;
    }
    return 0;
}

uint64_t npu_used_bytes(const struct npu_dev *d) { return d->hbm_reserved + d->hbm_used; }

/* npu_die_word: five words unique per (node, chip), stable for the node's
 * life: a hash of the node's creation time (or the SoC without a node) and
 * the chip's physical id. */
unsigned int npu_die_word(int dev, int i) {
    char err[512];
    struct mapping *m = map_node(err, sizeof err);
    uint64_t seed = m ? hdr(m)->created_ns : 0x4e50555f454d55ull;
    uint64_t x = npuemu_node_sum(&seed, sizeof seed) ^ ((uint64_t)(unsigned)dev << 32) ^ (uint64_t)(unsigned)i;
    x = npuemu_node_sum(&x, sizeof x);
    return (unsigned int)(x ^ (x >> 32));
}

int npu_proc_name(int pid, char *buf, size_t n) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/comm", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t r = read(fd, buf, n - 1);
    close(fd);
    if (r <= 0) return -1;
    buf[r] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

uint32_t npu_fault_seq(void) {
    char err[512];
    struct mapping *m = map_node(err, sizeof err);
    if (m == NULL) return 0;
    uint64_t s = 0;
    for (uint32_t i = 0; i < hdr(m)->device_count; i++) s += LOAD64(&dev_rec(m, (int)i)->error_seq);
    return (uint32_t)s;
}
