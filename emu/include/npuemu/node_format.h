/* npuemu/node_format.h: the on-disk format of an npuemu node directory.
 *
 * npuemu-specific. Every process that uses the emulated NPUs of one machine
 * (the runtime in libnpuemu.so, libdcmi.so, npu-smi) shares one node
 * directory; there is no daemon. docs/node.md describes the directory, the
 * locks, the liveness and reclaim rules and what a reader must check. This
 * header is the source of truth for the layout: emu/nodefmt.go mirrors it
 * and a test checks the Go mirror against the C compiler.
 *
 * Directory (default /dev/shm/npuemu-node; NPUEMU_NODE=<name> picks
 * /dev/shm/npuemu-<name>, NPUEMU_NODE=/abs/path picks that directory):
 *
 *   node      the node file: npuemu_node_header at offset 0, then the
 *             sections it names by offset (devices, chunk owners, process
 *             table, IPC tables, imports, vNPUs). Mapped MAP_SHARED.
 *   hbm<N>    device N's memory: a sparse file of hbm_span bytes, mapped
 *             MAP_SHARED at window_base + N * window_stride in every
 *             process, so a device pointer means the same bytes everywhere.
 *   phys-<H>  the memory of one VMM physical allocation with shareable
 *             handle H (hex), while it is exported.
 *
 * Rules every reader and writer follows (details in docs/node.md):
 *  - Check magic, version, header_size, file_size against the file's size
 *    and header_sum (npuemu_node_sum over the header up to header_sum)
 *    before trusting anything; refuse otherwise.
 *  - Every field is little-endian (the host's) and naturally aligned; the
 *    counters marked "atomic" are updated with 8-byte atomic operations
 *    without any lock and read with plain aligned 8-byte loads.
 *  - Table entries (processes, IPC, imports, vNPUs) change only under the
 *    table lock: an OFD write lock (fcntl F_OFD_SETLKW) on byte
 *    NPUEMU_NODE_LOCK_TABLES of the node file. A writer makes tables_seq odd
 *    before and even after a change; a lock-free reader copies what it
 *    needs between two equal, even reads of tables_seq (a seqlock), or
 *    takes the table lock as a reader (F_RDLCK).
 *  - A process slot is alive while its liveness lock (an OFD write lock on
 *    byte NPUEMU_NODE_LOCK_SLOT(i)) is held; the kernel drops it when the
 *    process dies. A reader tests it with F_OFD_GETLK; an entry whose lock
 *    is free is dead, whatever its state says.
 */
#ifndef NPUEMU_NODE_FORMAT_H
#define NPUEMU_NODE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NPUEMU_NODE_MAGIC 0x45444f4e554d454eull /* "NEMUNODE" read as little-endian bytes */
#define NPUEMU_NODE_VERSION 2u /* 2: core occupancy (core_users, core_hold, clock_base_ns) */

/* Capacities of the tables (fixed for a version). */
#define NPUEMU_NODE_MAX_DEVICES 64u
#define NPUEMU_NODE_MAX_PROCS 256u
#define NPUEMU_NODE_MAX_IPC 4096u     /* memory keys and shareable handles */
#define NPUEMU_NODE_MAX_EVENTS 4096u  /* IPC events */
#define NPUEMU_NODE_MAX_NOTIFIES 4096u /* IPC notifies */
#define NPUEMU_NODE_MAX_IMPORTS 8192u /* opened keys/handles/events/notifies */
#define NPUEMU_NODE_MAX_VNPUS 16u     /* per device */
#define NPUEMU_NODE_MAX_PIDS 64u      /* whitelist entries per IPC object */
#define NPUEMU_NODE_MAX_ERRORS 16u    /* error codes kept per device */
#define NPUEMU_NODE_ENGINES 8u        /* utilization counters per device */
#define NPUEMU_NODE_CHUNKS 4096u      /* allocation chunks per device */
#define NPUEMU_NODE_NAME_LEN 72u      /* key/name buffers: 65 bytes used, NUL-terminated */

/* Lock bytes of the node file (OFD locks may lie past the end of file). */
#define NPUEMU_NODE_LOCK_TABLES 0ull
#define NPUEMU_NODE_LOCK_SLOT_BASE (1ull << 40)
#define NPUEMU_NODE_LOCK_SLOT(i) (NPUEMU_NODE_LOCK_SLOT_BASE + (uint64_t)(i))

/* Device memory windows: device N's memory is at
 * window_base + N * window_stride in every process (header fields; these
 * are the values version 1 writes). */
#define NPUEMU_NODE_WINDOW_BASE 0x200000000000ull /* 32 TiB: above AddressSanitizer's shadow */
#define NPUEMU_NODE_WINDOW_SIZE (32ull << 40)     /* the reservation for all devices */

/* npuemu_node_header.state */
#define NPUEMU_NODE_STATE_CREATING 0u /* being initialised by its creator: wait, then re-read */
#define NPUEMU_NODE_STATE_READY 1u

/* npuemu_node_device.health (the DCMI health values) */
#define NPUEMU_NODE_HEALTH_OK 0u
#define NPUEMU_NODE_HEALTH_GENERAL 1u   /* minor alarm */
#define NPUEMU_NODE_HEALTH_IMPORTANT 2u /* major alarm */
#define NPUEMU_NODE_HEALTH_URGENT 3u    /* critical alarm */

/* npuemu_node_device.flags */
#define NPUEMU_NODE_DEV_RESETTING 0x1u /* a reset is in progress: no new process may open the device */

/* Engine indexes of busy_ns. */
#define NPUEMU_NODE_ENGINE_AICORE 0u
#define NPUEMU_NODE_ENGINE_VECTOR 1u
#define NPUEMU_NODE_ENGINE_AICPU 2u
#define NPUEMU_NODE_ENGINE_SDMA 3u /* copies and memsets */

/* npuemu_node_proc.state */
#define NPUEMU_NODE_PROC_FREE 0u
#define NPUEMU_NODE_PROC_LIVE 1u  /* owned by pid; alive only while its liveness lock is held */
#define NPUEMU_NODE_PROC_DEAD 2u  /* found dead, being reclaimed */

/* State of IPC entries, imports and vNPUs. */
#define NPUEMU_NODE_ENTRY_FREE 0u
#define NPUEMU_NODE_ENTRY_LIVE 1u

/* npuemu_node_ipc.kind */
#define NPUEMU_NODE_IPC_MEM_KEY 1u   /* aclrtIpcMemGetExportKey / halShmemCreateHandle name */
#define NPUEMU_NODE_IPC_SHAREABLE 2u /* aclrtMemExportToShareableHandle(V2) handle */

/* npuemu_node_ipc.flags, npuemu_node_event.flags, npuemu_node_notify.flags */
#define NPUEMU_NODE_IPC_NO_PID_CHECK 0x1u /* DISABLE_PID_VALIDATION / SHMEM_NO_WLIST_ENABLE */

/* npuemu_node_import.kind */
#define NPUEMU_NODE_IMPORT_IPC 1u
#define NPUEMU_NODE_IMPORT_EVENT 2u
#define NPUEMU_NODE_IMPORT_NOTIFY 3u

/* The header at offset 0 of the node file: 4096 bytes. Everything up to
 * header_sum is written once by the creator and covered by header_sum. */
struct npuemu_node_header {
    uint64_t magic;          /* NPUEMU_NODE_MAGIC */
    uint32_t version;        /* NPUEMU_NODE_VERSION */
    uint32_t header_size;    /* sizeof(struct npuemu_node_header) */
    uint64_t file_size;      /* bytes of the node file */
    uint64_t created_ns;     /* CLOCK_REALTIME at creation */
    char soc_name[32];       /* every device's SoC, NUL-terminated: "Ascend910B3" */
    uint32_t device_count;   /* devices of the node, 1..NPUEMU_NODE_MAX_DEVICES */
    uint32_t max_procs;      /* NPUEMU_NODE_MAX_PROCS */
    uint32_t max_ipc;        /* NPUEMU_NODE_MAX_IPC */
    uint32_t max_events;     /* NPUEMU_NODE_MAX_EVENTS */
    uint32_t max_notifies;   /* NPUEMU_NODE_MAX_NOTIFIES */
    uint32_t max_imports;    /* NPUEMU_NODE_MAX_IMPORTS */
    uint32_t max_vnpus;      /* NPUEMU_NODE_MAX_VNPUS, per device */
    uint32_t chunk_count;    /* NPUEMU_NODE_CHUNKS, per device */
    /* Byte offsets of the sections in the node file and their record sizes. */
    uint64_t devices_off;    /* device_count x struct npuemu_node_device */
    uint64_t chunks_off;     /* device_count x chunk_count x uint32_t owner */
    uint64_t procs_off;      /* max_procs x struct npuemu_node_proc */
    uint64_t ipc_off;        /* max_ipc x struct npuemu_node_ipc */
    uint64_t events_off;     /* max_events x struct npuemu_node_event */
    uint64_t notifies_off;   /* max_notifies x struct npuemu_node_notify */
    uint64_t imports_off;    /* max_imports x struct npuemu_node_import */
    uint64_t vnpus_off;      /* device_count x max_vnpus x struct npuemu_node_vnpu */
    uint32_t device_size;    /* sizeof(struct npuemu_node_device) */
    uint32_t proc_size;      /* sizeof(struct npuemu_node_proc) */
    uint32_t ipc_size;       /* sizeof(struct npuemu_node_ipc) */
    uint32_t event_size;     /* sizeof(struct npuemu_node_event) */
    uint32_t notify_size;    /* sizeof(struct npuemu_node_notify) */
    uint32_t import_size;    /* sizeof(struct npuemu_node_import) */
    uint32_t vnpu_size;      /* sizeof(struct npuemu_node_vnpu) */
    uint32_t mode;           /* permission bits the files were created with (0600, or 0660 shared with a group) */
    uint64_t window_base;    /* device 0's memory address in every process */
    uint64_t window_stride;  /* distance between two devices' memory */
    uint64_t header_sum;     /* npuemu_node_sum over the bytes before this field */
    /* Mutable part. */
    uint32_t state;          /* NPUEMU_NODE_STATE_* */
    uint32_t pad0;
    uint64_t tables_seq;     /* atomic; odd while a table is being changed (seqlock) */
    uint64_t next_key;       /* under the table lock: numbers keys, handles and vNPU ids */
    uint8_t reserved[3856];
};

/* One device: 4096 bytes. The part up to static_sum is written once at
 * creation and covered by static_sum. */
struct npuemu_node_device {
    uint32_t id;             /* index in the node */
    uint32_t phys_id;        /* physical id (what DCMI calls phy id) */
    char soc_name[32];       /* "Ascend910B3" */
    uint32_t aicore_count;   /* AI Cores (cube cores on A2) */
    uint32_t vector_count;   /* vector cores */
    uint32_t aicpu_count;    /* AI CPUs */
    uint32_t cube_count;     /* cube cores */
    uint64_t hbm_total;      /* nominal device memory in bytes (DCMI's memory size) */
    uint64_t hbm_usable;     /* what aclrtGetMemInfo reports as total */
    uint64_t hbm_os_bytes;   /* the device OS share: counted as used by DCMI, never allocatable */
    uint64_t hbm_span;       /* bytes of the device's memory file hbm<N> and of its window */
    uint64_t chunk_bytes;    /* bytes per chunk: hbm_span / chunk_count, a power of two */
    uint32_t chunk_count;    /* chunks of this device */
    uint32_t cube_mhz;       /* AI Core frequency */
    uint64_t static_sum;     /* npuemu_node_sum over the bytes before this field */
    /* Mutable part. */
    uint64_t hbm_used;       /* atomic: bytes allocated by live processes (aclrtMalloc, VMM physical, HAL) */
    uint32_t health;         /* NPUEMU_NODE_HEALTH_*; written by fault injection */
    uint32_t flags;          /* NPUEMU_NODE_DEV_* */
    uint32_t error_count;    /* valid entries of error_codes */
    uint32_t pad0;
    uint32_t error_codes[NPUEMU_NODE_MAX_ERRORS]; /* DCMI error codes, oldest first */
    uint64_t error_seq;      /* atomic: bumped whenever health or error_codes change (fault subscribers poll it) */
    /* Utilization: busy_ns[e] is the engine's busy time summed over its
     * units (core-nanoseconds) on the device clock; clock_ns is the device
     * clock when they were last added to. Over two samples the engine's
     * utilization is d(busy_ns[e]) / (d(clock_ns) * units(e)). */
    uint64_t clock_ns;                    /* atomic, only grows */
    uint64_t busy_ns[NPUEMU_NODE_ENGINES]; /* atomic, only grow */
    uint64_t hbm_bw_bytes;                /* atomic: bytes moved by copies and kernels, for bandwidth rates */
    uint32_t vnpu_count;                  /* live vNPUs of this device */
    uint32_t aicore_free;                 /* AI Cores not given to a vNPU */
    uint32_t aicpu_free;                  /* AI CPUs not given to a vNPU */
    uint32_t pad1;
    uint64_t hbm_free_vnpu;               /* bytes not given to a vNPU */
    uint64_t aicore_occupied;             /* atomic: AI Cores running a kernel block now, all processes */
    /* Core occupancy (docs/node.md, "Contention between processes"):
     * which processes hold the device's AI Cores until when, on the
     * device clock. */
    uint32_t core_users;                  /* atomic: processes that opened the device (bits of core_user_mask) */
    uint32_t pad2;
    uint64_t core_user_mask[NPUEMU_NODE_MAX_PROCS / 64]; /* atomic: bit i = slot i opened the device */
    uint64_t core_clock_floor_ns;         /* atomic, only grows: latest hold end of a process that closed or died */
    uint64_t core_hold[NPUEMU_NODE_MAX_PROCS]; /* atomic, written by slot i only: NPUEMU_NODE_HOLD_* of what slot i holds */
    uint8_t reserved[1680];
};

/* A core_hold word: the device time (ns) until which the slot holds cores,
 * and how many cube and vector cores it holds until then. */
#define NPUEMU_NODE_HOLD_UNTIL_BITS 48u
#define NPUEMU_NODE_HOLD_UNTIL(w) ((uint64_t)(w) & ((1ull << NPUEMU_NODE_HOLD_UNTIL_BITS) - 1))
#define NPUEMU_NODE_HOLD_CUBE(w) (((uint64_t)(w) >> 48) & 0xffu)
#define NPUEMU_NODE_HOLD_VECTOR(w) (((uint64_t)(w) >> 56) & 0xffu)

/* One process slot: 2048 bytes. Owned by one process while its liveness
 * lock is held. */
struct npuemu_node_proc {
    uint32_t state;          /* NPUEMU_NODE_PROC_* */
    int32_t pid;             /* host pid as seen in the pid namespace of pid_ns */
    uint64_t start_time;     /* /proc/<pid>/stat field 22 (clock ticks since boot): (pid, start_time) names the process */
    uint64_t mnt_ns;         /* inode of /proc/self/ns/mnt */
    uint64_t pid_ns;         /* inode of /proc/self/ns/pid */
    uint64_t generation;     /* bumped at every claim of the slot */
    uint64_t attached_ns;    /* CLOCK_REALTIME when the process took the slot */
    uint32_t uid;            /* real uid */
    int32_t bare_tgid;       /* aclrtDeviceGetBareTgid */
    char comm[16];           /* /proc/self/comm, NUL-terminated */
    uint64_t devices_open;   /* bit d: the process has opened device d */
    int32_t vnpu[NPUEMU_NODE_MAX_DEVICES]; /* bound vNPU id per device, -1 = the whole device */
    uint64_t hbm_bytes[NPUEMU_NODE_MAX_DEVICES]; /* atomic: device memory this process holds, per device */
    uint64_t aicore_busy_ns[NPUEMU_NODE_MAX_DEVICES]; /* atomic: AI Core busy core-ns of this process, per device */
    uint64_t clock_base_ns[NPUEMU_NODE_MAX_DEVICES]; /* device clock at this process's virtual time 0, per device (set when it opens the device) */
    uint8_t reserved[176];
};

/* One exported memory key or shareable handle: 512 bytes. */
struct npuemu_node_ipc {
    uint32_t state;          /* NPUEMU_NODE_ENTRY_* */
    uint32_t kind;           /* NPUEMU_NODE_IPC_* */
    uint32_t owner_slot;     /* the exporter's process slot */
    int32_t owner_pid;
    uint64_t owner_gen;      /* the slot's generation when exported */
    uint64_t generation;     /* bumped at every use of the entry: imports name (index, generation) */
    uint32_t device;         /* device of the memory */
    uint32_t flags;          /* NPUEMU_NODE_IPC_NO_PID_CHECK */
    uint64_t addr;           /* device address (the same in every process) of a memory key */
    uint64_t size;           /* bytes exported (page rounded) */
    uint64_t handle;         /* shareable handle value (kind SHAREABLE); memory file phys-<handle> */
    uint64_t attr;           /* aclrtIpcMemSetAttr / halShmemSetAttribute value */
    uint32_t import_count;   /* live imports of the entry */
    uint32_t pid_count;      /* valid entries of pids */
    char name[NPUEMU_NODE_NAME_LEN]; /* the key (kind MEM_KEY) */
    int32_t pids[NPUEMU_NODE_MAX_PIDS]; /* whitelist */
    uint8_t reserved[104];
};

/* One IPC event: 256 bytes. The record/complete sequence lets a process
 * that did not record wait for the exporter's record. */
struct npuemu_node_event {
    uint32_t state;          /* NPUEMU_NODE_ENTRY_* */
    uint32_t owner_slot;
    uint64_t owner_gen;
    uint64_t generation;     /* bumped at every use; the 64-byte handle carries (index, generation) */
    int32_t owner_pid;
    uint32_t device;
    uint32_t flags;
    uint32_t import_count;
    uint64_t record_seq;     /* atomic: records submitted (any process) */
    uint64_t done_seq;       /* atomic, futex word (low 32 bits): the last record that completed */
    uint64_t done_time_ns;   /* device clock of the last completion */
    uint8_t reserved[192];
};

/* One IPC notify: 256 bytes. */
struct npuemu_node_notify {
    uint32_t state;          /* NPUEMU_NODE_ENTRY_* */
    uint32_t owner_slot;
    uint64_t owner_gen;
    uint64_t generation;
    int32_t owner_pid;
    uint32_t device;
    uint32_t flags;          /* NPUEMU_NODE_IPC_NO_PID_CHECK */
    uint32_t import_count;
    uint32_t pid_count;
    uint32_t pad0;
    uint64_t pending;        /* atomic, futex word (low 32 bits): records not yet consumed by a wait */
    char name[NPUEMU_NODE_NAME_LEN]; /* the key */
    int32_t pids[16];        /* whitelist (first 16 pids) */
    uint8_t reserved[64];
};

/* One import (an opened key, handle, event or notify) of one process: 64 bytes. */
struct npuemu_node_import {
    uint32_t state;          /* NPUEMU_NODE_ENTRY_* */
    uint32_t kind;           /* NPUEMU_NODE_IMPORT_* */
    uint32_t slot;           /* the importing process's slot */
    uint32_t index;          /* entry in the table of kind */
    uint64_t slot_gen;       /* the slot's generation */
    uint64_t entry_gen;      /* the entry's generation when opened */
    uint64_t addr;           /* where the importer sees the memory (IPC kind) */
    uint8_t reserved[24];
};

/* One vNPU: 128 bytes. */
struct npuemu_node_vnpu {
    uint32_t state;          /* NPUEMU_NODE_ENTRY_* */
    uint32_t vdev_id;        /* 100 + 16 * phys_id + k */
    uint32_t vfg_id;
    uint32_t device;
    char template_name[32];  /* "vir10_3c_32g" */
    uint32_t aicore_count;
    uint32_t aicpu_count;
    uint64_t hbm_bytes;      /* memory carved for the vNPU ("actual") */
    uint64_t hbm_shown;      /* memory the templates list ("shown") */
    uint64_t hbm_used;       /* atomic: bytes allocated by processes bound to it */
    uint32_t process_count;  /* live processes bound to it */
    uint8_t reserved[44];
};

/* npuemu_node_sum is the checksum of header_sum and static_sum: 64-bit
 * FNV-1a over n bytes. */
static inline uint64_t npuemu_node_sum(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

#ifdef __cplusplus
}
#endif

#endif
