/*
 * libdcmi.so: vNPUs (create, destroy, VDEV_MNG queries of
 * dcmi_get_device_info), fault-event subscription and reset.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "dcmi_interface_api.h"
#include "npu.h"

#define MCU_ID 1
#define MB (1024ULL * 1024ULL)

static int check_chip(int card_id, int device_id) {
    if (!npu_ready()) return DCMI_ERR_CODE_NOT_REDAY;
    if (card_id < 0 || card_id >= npu_config()->ndev || device_id < 0 || device_id > MCU_ID)
        return DCMI_ERR_CODE_INVALID_PARAMETER;
    if (device_id == MCU_ID) return DCMI_ERR_CODE_NOT_SUPPORT;
    return DCMI_OK;
}

int dcmi_create_vdevice(int card_id, int device_id, struct dcmi_create_vdev_res_stru *vdev,
                        struct dcmi_create_vdev_out *out) {
    int rc = check_chip(card_id, device_id);
    if (rc != DCMI_OK) return rc;
    if (vdev == NULL || out == NULL) return DCMI_ERR_CODE_INVALID_PARAMETER;
    char tmpl[TEMPLATE_NAME_LEN + 1];
    memcpy(tmpl, vdev->template_name, TEMPLATE_NAME_LEN);
    tmpl[TEMPLATE_NAME_LEN] = '\0';
    unsigned int id = 0;
    rc = npu_vdev_create(card_id, tmpl, vdev->vdev_id, &id);
    if (rc != DCMI_OK) return rc;
    memset(out, 0, sizeof *out);
    out->vdev_id = id;
    out->vfg_id = (id - 100) % 16;
    return DCMI_OK;
}

int dcmi_set_destroy_vdevice(int card_id, int device_id, unsigned int vdevid) {
    int rc = check_chip(card_id, device_id);
    if (rc != DCMI_OK) return rc;
    return npu_vdev_destroy(card_id, vdevid);
}

static void computing_of(const struct npu_vtemplate *t, int aic, int aicpus, uint64_t mem_bytes,
                         struct dcmi_computing_resource *c) {
    memset(c, 0, sizeof *c);
    c->aic = (float)aic;
    c->aiv = (float)(aic * 2); /* two vector cores per AI Core on A2 */
    c->memory_size = mem_bytes / MB;
    c->device_aicpu = (unsigned short)aicpus;
    c->vdev_memory_total = mem_bytes / 1024;
    (void)t;
}

static void media_of(const struct npu_vtemplate *t, struct dcmi_media_resource *m) {
    memset(m, 0, sizeof *m);
    if (t == NULL) return;
    m->jpegd = (float)t->jpegd, m->jpege = (float)t->jpege, m->vpc = (float)t->vpc;
    m->vdec = (float)t->vdec, m->pngd = (float)t->pngd, m->venc = (float)t->venc;
}

static int want_size(unsigned int *size, unsigned int n) {
    if (size == NULL || *size < n) return DCMI_ERR_CODE_INVALID_PARAMETER;
    *size = n;
    return DCMI_OK;
}

/* vdev_mng answers DCMI_MAIN_CMD_VDEV_MNG. */
static int vdev_mng(int card, unsigned int sub, void *buf, unsigned int *size) {
    struct npu_dev d;
    if (npu_read_device(card, &d) != 0) return DCMI_ERR_CODE_INNER_ERR;
    const struct npu_soc *s = npu_config()->soc;
    int aic = 0, cpu = 0;
    uint64_t mem = 0;
    for (int i = 0; i < d.nvdev; i++) aic += d.vdev[i].aicores, cpu += d.vdev[i].aicpus, mem += d.vdev[i].mem_bytes;
    uint64_t usable = d.hbm_total - d.hbm_reserved;
    switch (sub) {
    case DCMI_VMNG_SUB_CMD_GET_TOTAL_RESOURCE: {
        struct dcmi_soc_total_resource *r = buf;
        int rc = want_size(size, sizeof *r);
        if (rc != DCMI_OK) return rc;
        memset(r, 0, sizeof *r);
        r->vdev_num = (unsigned)d.nvdev;
        for (int i = 0; i < d.nvdev && i < DCMI_SOC_SPLIT_MAX; i++) {
            r->vdev_id[i] = d.vdev[i].id;
            r->vfg_bitmap |= 1u << ((d.vdev[i].id - 100) % 16);
        }
        r->vfg_num = (unsigned)d.nvdev;
        computing_of(NULL, s->aicores, s->aicpus, d.hbm_total, &r->computing);
        return DCMI_OK;
    }
    case DCMI_VMNG_SUB_CMD_GET_FREE_RESOURCE: {
        struct dcmi_soc_free_resource *r = buf;
        int rc = want_size(size, sizeof *r);
        if (rc != DCMI_OK) return rc;
        memset(r, 0, sizeof *r);
        r->vfg_num = (unsigned)(16 - d.nvdev);
        computing_of(NULL, s->aicores - aic, s->aicpus - cpu, usable > mem ? usable - mem : 0, &r->computing);
        return DCMI_OK;
    }
    case DCMI_VMNG_SUB_CMD_GET_VDEV_RESOURCE:
    case DCMI_VMNG_SUB_CMD_GET_VDEV_ACTIVITY: {
        struct dcmi_vdev_query_stru *q = buf;
        int rc = want_size(size, sizeof *q);
        if (rc != DCMI_OK) return rc;
        for (int i = 0; i < d.nvdev; i++) {
            const struct npu_vdev *v = &d.vdev[i];
            if (v->id != q->vdev_id) continue;
            const struct npu_vtemplate *t = npu_vtemplate_lookup(v->tmpl);
            struct dcmi_vdev_query_info *qi = &q->query_info;
            memset(qi, 0, sizeof *qi);
            snprintf(qi->name, sizeof qi->name, "%s", v->tmpl);
            qi->status = 0;
            qi->is_container_used = 0;
            qi->vfid = (v->id - 100) % 16;
            qi->vfg_id = qi->vfid;
            qi->base.vfg_id = qi->vfid;
            computing_of(t, v->aicores, v->aicpus, v->mem_bytes, &qi->computing);
            qi->computing.vdev_memory_free = (v->mem_bytes - (v->used_bytes < v->mem_bytes ? v->used_bytes : v->mem_bytes)) / 1024;
            if (sub == DCMI_VMNG_SUB_CMD_GET_VDEV_ACTIVITY) qi->computing.vdev_aicore_utilization = d.util_aicore;
            media_of(t, &qi->media);
            return DCMI_OK;
        }
        return DCMI_ERR_CODE_INVALID_PARAMETER; /* no such vNPU on this chip */
    }
    case DCMI_VMNG_SUB_CMD_SET_SRIOV_SWITCH: return DCMI_ERR_CODE_INVALID_PARAMETER; /* a set command */
    default: return DCMI_ERR_CODE_NOT_SUPPORT;
    }
}

int dcmi_get_device_info(int card_id, int device_id, enum dcmi_main_cmd main_cmd, unsigned int sub_cmd, void *buf,
                         unsigned int *size) {
    int rc = check_chip(card_id, device_id);
    if (rc != DCMI_OK) return rc;
    if (buf == NULL || size == NULL) return DCMI_ERR_CODE_INVALID_PARAMETER;
    switch (main_cmd) {
    case DCMI_MAIN_CMD_VDEV_MNG: return vdev_mng(card_id, sub_cmd, buf, size);
    case DCMI_MAIN_CMD_HCCS:
        if (sub_cmd == DCMI_HCCS_CMD_GET_STATISTIC_INFO) {
            if ((rc = want_size(size, sizeof(struct dcmi_hccs_statistic_info))) != DCMI_OK) return rc;
            memset(buf, 0, sizeof(struct dcmi_hccs_statistic_info)); /* no HCCS traffic is modelled */
            return DCMI_OK;
        }
        if (sub_cmd == DCMI_HCCS_CMD_GET_STATISTIC_INFO_U64) {
            if ((rc = want_size(size, sizeof(struct dcmi_hccs_statistic_info_u64))) != DCMI_OK) return rc;
            memset(buf, 0, sizeof(struct dcmi_hccs_statistic_info_u64));
            return DCMI_OK;
        }
        return DCMI_ERR_CODE_NOT_SUPPORT;
    default:
        /* CHIP_INF/SPOD and SIO are A3 facts; the rest is not emulated. */
        return DCMI_ERR_CODE_NOT_SUPPORT;
    }
}

/* Fault events: one subscriber thread per process polls the node's
 * error_seq words every 100 ms (the node format's rule for subscribers)
 * and delivers raised (assertion 1) and recovered (0) codes. */
static pthread_mutex_t sub_mu = PTHREAD_MUTEX_INITIALIZER;
static int subscribed;
static struct dcmi_event_filter sub_filter;
static dcmi_fault_event_callback sub_cb;
static int sub_card; /* -1 = every chip */

static int filter_pass(const struct dcmi_dms_fault_event *e) {
    if ((sub_filter.filter_flag & DCMI_EVENT_FILTER_FLAG_EVENT_ID) && e->event_id != sub_filter.event_id) return 0;
    if ((sub_filter.filter_flag & DCMI_EVENT_FILTER_FLAG_SERVERITY) && e->severity < sub_filter.severity) return 0;
    if ((sub_filter.filter_flag & DCMI_EVENT_FILTER_FLAG_NODE_TYPE) && e->node_type != sub_filter.node_type) return 0;
    return 1;
}

static int has(const unsigned int *a, int n, unsigned int v) {
    for (int i = 0; i < n; i++)
        if (a[i] == v) return 1;
    return 0;
}

static void deliver(int dev, unsigned int code, int assertion, unsigned int health, int serial) {
    struct dcmi_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = DCMI_DMS_FAULT_EVENT;
    struct dcmi_dms_fault_event *e = &ev.event_t.dms_event;
    e->event_id = code;
    e->deviceid = (unsigned short)dev;
    e->severity = (unsigned char)(health > 3 ? 3 : health);
    e->assertion = (unsigned char)assertion;
    e->event_serial_num = serial;
    e->notify_serial_num = serial;
    struct timeval tv;
    gettimeofday(&tv, NULL);
    e->alarm_raised_time = (unsigned long long)tv.tv_sec * 1000ULL + (unsigned long long)tv.tv_usec / 1000ULL;
    snprintf(e->event_name, sizeof e->event_name, "npuemu fault 0x%08X", code);
    if (filter_pass(e)) sub_cb(&ev);
}

/* The subscriber's view: taken when the subscription is made, so that a
 * fault recorded right after dcmi_subscribe_fault_event returns is an event. */
static struct npu_dev prev[64], now;
static uint32_t seen;

static void *subscriber(void *arg) {
    (void)arg;
    int ndev = npu_config()->ndev < 64 ? npu_config()->ndev : 64;
    int serial = 0;
    for (;;) {
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
        uint32_t s = npu_fault_seq();
        if (s == seen) continue;
        seen = s;
        for (int i = 0; i < ndev; i++) {
            if (npu_read_device(i, &now) != 0) continue;
            if (sub_card < 0 || sub_card == i) {
                for (int k = 0; k < now.nerr; k++)
                    if (!has(prev[i].err, prev[i].nerr, now.err[k])) deliver(i, now.err[k], 1, now.health, ++serial);
                for (int k = 0; k < prev[i].nerr; k++)
                    if (!has(now.err, now.nerr, prev[i].err[k])) deliver(i, prev[i].err[k], 0, now.health, ++serial);
            }
            prev[i].nerr = now.nerr;
            memcpy(prev[i].err, now.err, sizeof now.err);
        }
    }
    return NULL;
}

int dcmi_subscribe_fault_event(int card_id, int device_id, struct dcmi_event_filter filter,
                               dcmi_fault_event_callback handler) {
    if (!npu_ready()) return DCMI_ERR_CODE_NOT_REDAY;
    if (handler == NULL) return DCMI_ERR_CODE_INVALID_PARAMETER;
    if (!(card_id == -1 && device_id == -1)) {
        int rc = check_chip(card_id, device_id);
        if (rc != DCMI_OK) return rc;
    }
    pthread_mutex_lock(&sub_mu);
    if (subscribed) {
        pthread_mutex_unlock(&sub_mu);
        return DCMI_ERR_CODE_RESOURCE_OCCUPIED; /* once per process */
    }
    sub_filter = filter;
    sub_cb = handler;
    sub_card = card_id;
    seen = npu_fault_seq();
    for (int i = 0; i < npu_config()->ndev && i < 64; i++) npu_read_device(i, &prev[i]);
    /* The subscriber thread runs this library's code for the rest of the
     * process: pin the library so that a later dlclose cannot unmap it. */
    Dl_info self;
    if (dladdr((void *)dcmi_subscribe_fault_event, &self) != 0 && self.dli_fname != NULL)
        (void)dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    int err = pthread_create(&t, &a, subscriber, NULL);
    pthread_attr_destroy(&a);
    if (err == 0) subscribed = 1;
    pthread_mutex_unlock(&sub_mu);
    return err == 0 ? DCMI_OK : DCMI_ERR_CODE_INNER_ERR;
}

int dcmi_set_device_reset(int card_id, int device_id, enum dcmi_reset_channel channel_type) {
    int rc = check_chip(card_id, device_id);
    if (rc != DCMI_OK) return rc;
    if (channel_type != INBAND_CHANNEL && channel_type != OUTBAND_CHANNEL) return DCMI_ERR_CODE_INVALID_PARAMETER;
    return npu_reset_device(card_id);
}

int dcmi_pre_reset_soc(int card_id, int device_id) {
    int rc = check_chip(card_id, device_id);
    if (rc != DCMI_OK) return rc;
    struct npu_dev d;
    if (npu_read_device(card_id, &d) != 0) return DCMI_ERR_CODE_INNER_ERR;
    return d.nproc > 0 || d.hbm_used > 0 ? DCMI_ERR_CODE_RESOURCE_OCCUPIED : DCMI_OK;
}

int dcmi_rescan_soc(int card_id, int device_id) { return check_chip(card_id, device_id); }

int dcmi_get_device_outband_channel_state(int card_id, int device_id, int *channel_state) {
    int rc = check_chip(card_id, device_id);
    if (rc != DCMI_OK) return rc;
    if (channel_state == NULL) return DCMI_ERR_CODE_INVALID_PARAMETER;
    *channel_state = 1;
    return DCMI_OK;
}
