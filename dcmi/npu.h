/*
 * The node as the plain-C management tools see it: libdcmi.so,
 * libdrvdsmi_host.so and npu-smi all answer from these functions, so the
 * three agree with each other and with the Go device model (one source of
 * truth: the node directory, read-only, plus the configuration when no
 * process has created the node yet).
 *
 * Thread safety: npu_init may race with itself (a mutex serialises it);
 * every other function reads immutable configuration or takes a fresh
 * snapshot of the node, so any number of threads may call them.
 */
#ifndef NPUEMU_DCMI_NPU_H
#define NPUEMU_DCMI_NPU_H

#include <stddef.h>
#include <stdint.h>

#include "soc.h"

#define NPU_MAX_PROCS 64   /* processes listed per device */
#define NPU_MAX_ERRCODES 128
#define NPU_MAX_VDEVS 16   /* vNPUs per chip: ids 100+16*phy+k */

/* npu_cfg is the node's configuration: from the node header when the node
 * exists, else from NPUEMU_CONFIG / NPUEMU_SOC / NPUEMU_DEVICES /
 * NPUEMU_HBM_BYTES with the Go side's defaults (8 x Ascend910B3). */
struct npu_cfg {
    const struct npu_soc *soc;
    int ndev;
    uint64_t usable_bytes; /* allocatable HBM per device (HBM less the device-OS share) */
    char source[256];      /* where the values came from, for npu-smi and messages */
    char node_dir[1024];   /* the node directory (may not exist yet) */
};

struct npu_proc {
    int pid;        /* host pid */
    uint64_t bytes; /* device memory the process holds on this device */
};

struct npu_vdev {
    unsigned int id;   /* 100 + 16*phy + k */
    char tmpl[32];     /* template name, e.g. "vir10_3c_32g" */
    int aicores, aicpus;
    uint64_t mem_bytes;  /* memory carved for it */
    uint64_t used_bytes; /* allocated by processes bound to it */
};

/* npu_dev is one consistent snapshot of a device. */
struct npu_dev {
    uint64_t hbm_total;    /* nominal HBM bytes (what DCMI reports as size) */
    uint64_t hbm_reserved; /* device-OS share, always "used" */
    uint64_t hbm_used;     /* bytes held by live processes */
    unsigned int health;   /* 0 OK, 1 minor, 2 major, 3 critical */
    int nerr;
    unsigned int err[NPU_MAX_ERRCODES];
    unsigned int util_aicore, util_vector, util_aicpu; /* percent */
    int nproc;
    struct npu_proc proc[NPU_MAX_PROCS];
    int nvdev;
    struct npu_vdev vdev[NPU_MAX_VDEVS];
    int node_present; /* 0: no process has created the node yet */
};

/* npu_init loads the configuration once per library load; later calls
 * return the first result. 0 on success, else -1 with a message in err. */
int npu_init(char *err, size_t errlen);
int npu_ready(void);
const struct npu_cfg *npu_config(void);

/* npu_read_device fills d with device dev's state. 0, or -1 when the node
 * is corrupt or of another format (the message goes to npu_last_error). */
int npu_read_device(int dev, struct npu_dev *d);
const char *npu_last_error(void);

/* npu_vdev_create / npu_vdev_destroy change the node's vNPU table.
 * They return 0 or a negative DCMI error code. */
int npu_vdev_create(int dev, const char *tmpl, unsigned int want_id, unsigned int *id);
int npu_vdev_destroy(int dev, unsigned int id);

/* npu_fault_seq sums the devices' error_seq: it changes whenever a
 * device's health or error codes change. */
uint32_t npu_fault_seq(void);

/* npu_reset_device clears a device's faults when no process uses it:
 * 0 or a negative DCMI error code. */
int npu_reset_device(int dev);

/* npu_vtemplate describes the vNPU templates of the configured SoC. */
struct npu_vtemplate {
    const char *name;
    int aicores, aicpus;
    unsigned int mem_shown_mb, mem_actual_mb;
    int vpc, venc, vdec, jpegd, jpege, pngd;
};
const struct npu_vtemplate *npu_vtemplate_lookup(const char *name);

/* Helpers shared by the front ends. */
uint64_t npu_used_bytes(const struct npu_dev *d); /* reserved + process bytes */
unsigned int npu_die_word(int dev, int i);        /* stable per-chip VDIE words */
int npu_proc_name(int pid, char *buf, size_t n);  /* /proc/<pid>/comm */

#endif
