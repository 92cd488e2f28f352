/*
 * vNPUs and reset: the two DCMI calls that change the node. They follow the
 * node's write protocol (docs/node.md): the table lock (OFD write lock on
 * byte NPUEMU_NODE_LOCK_TABLES) around the change, tables_seq odd during it.
 * Who may write: whoever may open the node file read-write, i.e. its owner
 * (or its group when shared); that stands for the real library's "host
 * root or privileged container" rule (else -8002).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dcmi_interface_api.h"
#include "npu.h"
#include "npuemu/node_format.h"

/* Templates of the 910B family (../shared/spec/dcmi-api.md §9). */
static const struct npu_vtemplate t910b3[] = {
    {"vir10_3c_32g", 10, 3, 32768, 30720, 4, 0, 1, 12, 2, 0},
    {"vir05_1c_16g", 5, 1, 16384, 15360, 2, 0, 0, 6, 1, 0},
    {NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
};
static const struct npu_vtemplate t910b12[] = {
    {"vir12_3c_32g", 12, 3, 32768, 30720, 5, 0, 1, 14, 2, 0},
    {"vir06_1c_16g", 6, 1, 16384, 15360, 2, 0, 0, 7, 1, 0},
    {NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
};
static const struct npu_vtemplate t910b4[] = {
    {"vir10_3c_16g", 10, 3, 16384, 14336, 4, 0, 1, 12, 2, 0},
    {"vir10_4c_16g_m", 10, 4, 16384, 14336, 9, 0, 2, 24, 4, 0},
    {"vir10_3c_16g_nm", 10, 3, 16384, 14336, 0, 0, 0, 0, 0, 0},
    {"vir05_1c_8g", 5, 1, 8192, 7168, 2, 0, 0, 6, 1, 0},
    {NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
};

static const struct npu_vtemplate *templates(void) {
    const char *n = npu_config()->soc->name;
    if (strcmp(n, "Ascend910B3") == 0 || strcmp(n, "Ascend910B4-1") == 0) return t910b3;
    if (strcmp(n, "Ascend910B1") == 0 || strcmp(n, "Ascend910B2") == 0 || strcmp(n, "Ascend910B2C") == 0)
        return t910b12;
    if (strcmp(n, "Ascend910B4") == 0) return t910b4;
    return NULL;
}

const struct npu_vtemplate *npu_vtemplate_lookup(const char *name) {
    const struct npu_vtemplate *t = templates();
    for (; t != NULL && t->name != NULL; t++)
        if (strcmp(t->name, name) == 0) return t;
    return NULL;
}

/* A writable view of the node, open only for one change. */
struct wnode {
    int fd;
    unsigned char *b;
    size_t size;
    struct npuemu_node_header *h;
};

static int wopen(struct wnode *w) {
    char path[1100];
    snprintf(path, sizeof path, "%s/node", npu_config()->node_dir);
    w->fd = open(path, O_RDWR | O_CLOEXEC);
    if (w->fd < 0) {
        if (errno == ENOENT) return DCMI_ERR_CODE_NOT_REDAY; /* no process created the node yet */
        return errno == EACCES || errno == EPERM ? DCMI_ERR_CODE_OPER_NOT_PERMITTED : DCMI_ERR_CODE_FILE_OPERATE_FAIL;
    }
    struct stat st;
    if (fstat(w->fd, &st) != 0 || st.st_size < (off_t)sizeof(struct npuemu_node_header)) {
        close(w->fd);
        return DCMI_ERR_CODE_FILE_OPERATE_FAIL;
    }
    w->size = (size_t)st.st_size;
    w->b = mmap(NULL, w->size, PROT_READ | PROT_WRITE, MAP_SHARED, w->fd, 0);
    if (w->b == MAP_FAILED) {
        close(w->fd);
        return DCMI_ERR_CODE_MEM_OPERATE_FAIL;
    }
    w->h = (void *)w->b;
    /* the reader validated this file at dcmi_init; re-check what we rely on */
    if (w->h->magic != NPUEMU_NODE_MAGIC || w->h->version != NPUEMU_NODE_VERSION || w->h->file_size != w->size) {
        munmap(w->b, w->size);
        close(w->fd);
        return DCMI_ERR_CODE_FILE_OPERATE_FAIL;
    }
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = NPUEMU_NODE_LOCK_TABLES, .l_len = 1};
    while (fcntl(w->fd, F_OFD_SETLKW, &fl) != 0) {
        if (errno != EINTR) {
            munmap(w->b, w->size);
            close(w->fd);
            return DCMI_ERR_CODE_FILE_OPERATE_FAIL;
        }
    }
    atomic_fetch_add_explicit((_Atomic uint64_t *)&w->h->tables_seq, 1, memory_order_acq_rel); /* odd */
    return DCMI_OK;
}

static void wclose(struct wnode *w) {
    atomic_fetch_add_explicit((_Atomic uint64_t *)&w->h->tables_seq, 1, memory_order_acq_rel); /* even */
    struct flock fl = {.l_type = F_UNLCK, .l_whence = SEEK_SET, .l_start = NPUEMU_NODE_LOCK_TABLES, .l_len = 1};
    fcntl(w->fd, F_OFD_SETLK, &fl);
    munmap(w->b, w->size);
    close(w->fd);
}

static struct npuemu_node_device *wdev(struct wnode *w, int dev) {
    return (struct npuemu_node_device *)(w->b + w->h->devices_off) + dev;
}

static struct npuemu_node_vnpu *wvnpu(struct wnode *w, int dev, int k) {
    return (struct npuemu_node_vnpu *)(w->b + w->h->vnpus_off) + (size_t)dev * w->h->max_vnpus + k;
}

/* device_in_use: a live process holds memory on or has opened dev. */
static int device_in_use(int dev) {
    struct npu_dev d;
    if (npu_read_device(dev, &d) != 0) return -1;
    return d.nproc > 0 || d.hbm_used > 0;
}

#define MB (1024ULL * 1024ULL)

int npu_vdev_create(int dev, const char *tmpl, unsigned int want_id, unsigned int *id) {
    const struct npu_vtemplate *t = npu_vtemplate_lookup(tmpl);
    if (templates() == NULL) return DCMI_ERR_CODE_NOT_SUPPORT;
    if (t == NULL) return DCMI_ERR_CODE_INVALID_PARAMETER;
    int inuse = device_in_use(dev);
    if (inuse < 0) return DCMI_ERR_CODE_INNER_ERR;
    if (inuse) return DCMI_ERR_CODE_RESOURCE_OCCUPIED; /* the whole chip is in use */
    struct wnode w;
    int rc = wopen(&w);
    if (rc != DCMI_OK) return rc;
    struct npuemu_node_device *d = wdev(&w, dev);
    unsigned base = 100 + 16 * d->phys_id;
    int aic = 0, cpu = 0, free_k = -1, want_k = -1;
    uint64_t mem = 0;
    unsigned used_ids = 0;
    for (uint32_t k = 0; k < w.h->max_vnpus; k++) {
        struct npuemu_node_vnpu *v = wvnpu(&w, dev, (int)k);
        if (v->state != NPUEMU_NODE_ENTRY_LIVE) {
            if (free_k < 0) free_k = (int)k;
            continue;
        }
        aic += (int)v->aicore_count, cpu += (int)v->aicpu_count, mem += v->hbm_bytes;
        if (v->vdev_id >= base && v->vdev_id < base + 16) used_ids |= 1u << (v->vdev_id - base);
    }
    if (want_id != 0xFFFFFFFFu) {
        if (want_id < base || want_id >= base + 16 || (used_ids >> (want_id - base)) & 1) rc = DCMI_ERR_CODE_INVALID_PARAMETER;
        want_k = (int)(want_id - base);
    } else {
        for (int k = 0; k < 16 && want_k < 0; k++)
            if (!((used_ids >> k) & 1)) want_k = k;
    }
    uint64_t actual = (uint64_t)t->mem_actual_mb * MB;
    if (rc == DCMI_OK && (free_k < 0 || want_k < 0 || aic + t->aicores > (int)d->aicore_count ||
                          cpu + t->aicpus > (int)d->aicpu_count || mem + actual > d->hbm_usable))
        rc = DCMI_ERR_CODE_RESOURCE_OCCUPIED;
    if (rc == DCMI_OK) {
        struct npuemu_node_vnpu *v = wvnpu(&w, dev, free_k);
        memset(v, 0, sizeof *v);
        v->vdev_id = base + (unsigned)want_k;
        v->vfg_id = (unsigned)want_k;
        v->device = (unsigned)dev;
        snprintf(v->template_name, sizeof v->template_name, "%s", t->name);
        v->aicore_count = (unsigned)t->aicores;
        v->aicpu_count = (unsigned)t->aicpus;
        v->hbm_bytes = actual;
        v->hbm_shown = (uint64_t)t->mem_shown_mb * MB;
        atomic_store_explicit((_Atomic uint32_t *)&v->state, NPUEMU_NODE_ENTRY_LIVE, memory_order_release);
        d->vnpu_count++;
        d->aicore_free = d->aicore_count - (unsigned)(aic + t->aicores);
        d->aicpu_free = d->aicpu_count - (unsigned)(cpu + t->aicpus);
        d->hbm_free_vnpu = d->hbm_usable - (mem + actual);
        *id = v->vdev_id;
    }
    wclose(&w);
    return rc;
}

int npu_vdev_destroy(int dev, unsigned int id) {
    struct wnode w;
    int rc = wopen(&w);
    if (rc != DCMI_OK) return rc;
    struct npuemu_node_device *d = wdev(&w, dev);
    rc = DCMI_ERR_CODE_INVALID_PARAMETER; /* no such vNPU on this chip */
    for (uint32_t k = 0; k < w.h->max_vnpus; k++) {
        struct npuemu_node_vnpu *v = wvnpu(&w, dev, (int)k);
        if (v->state != NPUEMU_NODE_ENTRY_LIVE || v->vdev_id != id) continue;
        if (atomic_load((_Atomic uint32_t *)&v->process_count) > 0 ||
            atomic_load((_Atomic uint64_t *)&v->hbm_used) > 0) {
            rc = DCMI_ERR_CODE_RESOURCE_OCCUPIED;
            break;
        }
        atomic_store_explicit((_Atomic uint32_t *)&v->state, NPUEMU_NODE_ENTRY_FREE, memory_order_release);
        d->vnpu_count--;
        d->aicore_free += v->aicore_count;
        d->aicpu_free += v->aicpu_count;
        d->hbm_free_vnpu += v->hbm_bytes;
        rc = DCMI_OK;
        break;
    }
    wclose(&w);
    return rc;
}

int npu_reset_device(int dev) {
    int inuse = device_in_use(dev);
    if (inuse < 0) return DCMI_ERR_CODE_INNER_ERR;
    if (inuse) return DCMI_ERR_CODE_RESOURCE_OCCUPIED;
    struct wnode w;
    int rc = wopen(&w);
    if (rc == DCMI_ERR_CODE_NOT_REDAY) return DCMI_OK; /* no node: nothing ran, nothing to clear */
    if (rc != DCMI_OK) return rc;
    struct npuemu_node_device *d = wdev(&w, dev);
    atomic_fetch_or((_Atomic uint32_t *)&d->flags, NPUEMU_NODE_DEV_RESETTING);
    atomic_store((_Atomic uint32_t *)&d->error_count, 0);
    atomic_store((_Atomic uint32_t *)&d->health, NPUEMU_NODE_HEALTH_OK);
    atomic_fetch_add((_Atomic uint64_t *)&d->error_seq, 1);
    atomic_fetch_and((_Atomic uint32_t *)&d->flags, ~NPUEMU_NODE_DEV_RESETTING);
    wclose(&w);
    return DCMI_OK;
}
