/*
 * libdrvdsmi_host.so: the legacy DSMI subset (../shared/spec/hal-api.md §5)
 * over the same node reader as libdcmi.so (npu.h), so both libraries and
 * npu-smi answer the same. Results are drvError_t codes: DRV_ERROR_PARA_ERROR
 * for bad arguments, DRV_ERROR_INVALID_DEVICE for an unknown device id,
 * DRV_ERROR_NOT_SUPPORT for what a 910B does not have. Units follow the
 * driver: memory sizes in KB.
 */
#include <stdio.h>
#include <string.h>

#include "driver/dsmi_common_interface.h"
#include "npu.h"

#define EXPORT __attribute__((visibility("default")))
#define KB 1024ULL

/* ready loads the configuration on first use (DSMI has no init call). */
static int ready(void) {
    if (npu_ready()) return DRV_ERROR_NONE;
    char err[512];
    if (npu_init(err, sizeof err) != 0) {
        fprintf(stderr, "npuemu libdrvdsmi_host: %s\n", err);
        return DRV_ERROR_INNER_ERR;
    }
    return DRV_ERROR_NONE;
}

static int check_dev(int device_id, const void *out) {
    int rc = ready();
    if (rc != DRV_ERROR_NONE) return rc;
    if (out == NULL) return DRV_ERROR_PARA_ERROR;
    if (device_id < 0 || device_id >= npu_config()->ndev) return DRV_ERROR_INVALID_DEVICE;
    return DRV_ERROR_NONE;
}

static int snap(int dev, struct npu_dev *d) { return npu_read_device(dev, d) == 0 ? DRV_ERROR_NONE : DRV_ERROR_INNER_ERR; }

EXPORT int dsmi_get_device_count(int *device_count) {
    int rc = ready();
    if (rc != DRV_ERROR_NONE) return rc;
    if (device_count == NULL) return DRV_ERROR_PARA_ERROR;
    *device_count = npu_config()->ndev;
    return DRV_ERROR_NONE;
}

EXPORT int dsmi_get_chip_count(int *chip_count) { return dsmi_get_device_count(chip_count); }

EXPORT int dsmi_list_device(int device_id_list[], int count) {
    int rc = ready();
    if (rc != DRV_ERROR_NONE) return rc;
    if (device_id_list == NULL || count < 1 || count > 64 || count < npu_config()->ndev) return DRV_ERROR_PARA_ERROR;
    for (int i = 0; i < npu_config()->ndev; i++) device_id_list[i] = i;
    return DRV_ERROR_NONE;
}

static int map_id(unsigned int in, unsigned int *out) {
    int rc = ready();
    if (rc != DRV_ERROR_NONE) return rc;
    if (out == NULL) return DRV_ERROR_PARA_ERROR;
    if (in >= (unsigned)npu_config()->ndev) return DRV_ERROR_INVALID_DEVICE;
    *out = in;
    return DRV_ERROR_NONE;
}

EXPORT int dsmi_get_phyid_from_logicid(unsigned int logicid, unsigned int *phyid) { return map_id(logicid, phyid); }

EXPORT int dsmi_get_logicid_from_phyid(unsigned int phyid, unsigned int *logicid) { return map_id(phyid, logicid); }

EXPORT int dsmi_get_memory_info(int device_id, struct dsmi_memory_info_stru *info) {
    int rc = check_dev(device_id, info);
    struct npu_dev d;
    if (rc != DRV_ERROR_NONE || (rc = snap(device_id, &d)) != DRV_ERROR_NONE) return rc;
    uint64_t used = npu_used_bytes(&d);
    info->memory_size = d.hbm_total / KB;
    info->freq = 1600;
    info->utiliza = d.hbm_total ? (unsigned)((used * 100 + d.hbm_total / 2) / d.hbm_total) : 0;
    return DRV_ERROR_NONE;
}

EXPORT int dsmi_get_memory_info_v2(int device_id, struct dsmi_get_memory_info_stru *info) {
    int rc = check_dev(device_id, info);
    if (rc != DRV_ERROR_NONE) return rc;
    struct npu_chip_facts f;
    npu_chip_facts(npu_config()->soc, &f);
    if (!f.has_ddr) return DRV_ERROR_NOT_SUPPORT; /* the DDR view; A2/A3 have HBM only */
    struct npu_dev d;
    if ((rc = snap(device_id, &d)) != DRV_ERROR_NONE) return rc;
    uint64_t used = npu_used_bytes(&d);
    memset(info, 0, sizeof *info);
    info->memory_size = d.hbm_total / KB;
    info->memory_available = (used < d.hbm_total ? d.hbm_total - used : 0) / KB;
    info->freq = f.hbm_mhz;
    info->hugepagesize = 2048;
    return DRV_ERROR_NONE;
}

EXPORT int dsmi_get_hbm_info(int device_id, struct dsmi_hbm_info_stru *info) {
    int rc = check_dev(device_id, info);
    struct npu_dev d;
    if (rc != DRV_ERROR_NONE || (rc = snap(device_id, &d)) != DRV_ERROR_NONE) return rc;
    struct npu_chip_facts f;
    npu_chip_facts(npu_config()->soc, &f);
    info->memory_size = d.hbm_total / KB;
    info->freq = f.hbm_mhz;
    info->memory_usage = npu_used_bytes(&d) / KB;
    info->temp = 33 + (int)(d.util_aicore * 25 / 100);
    info->bandwith_util_rate = d.util_aicore;
    return DRV_ERROR_NONE;
}

EXPORT int dsmi_get_device_utilization_rate(int device_id, int device_type, unsigned int *rate) {
    int rc = check_dev(device_id, rate);
    if (rc != DRV_ERROR_NONE) return rc;
    if (device_type < 1 || device_type > 14) return DRV_ERROR_PARA_ERROR;
    struct npu_dev d;
    if ((rc = snap(device_id, &d)) != DRV_ERROR_NONE) return rc;
    uint64_t used = npu_used_bytes(&d);
    switch (device_type) {
    case UTLRATE_TYPE_AICORE: case 7: case 9: case 11: case 14: *rate = d.util_aicore; break;
    case UTLRATE_TYPE_AICPU: *rate = d.util_aicpu; break;
    case UTLRATE_TYPE_CTRLCPU: *rate = 0; break;
    case UTLRATE_TYPE_HBM: *rate = d.hbm_total ? (unsigned)((used * 100 + d.hbm_total / 2) / d.hbm_total) : 0; break;
    case 10: *rate = d.util_aicore; break; /* HBM bandwidth */
    case 12: *rate = d.util_vector; break;
    case 13: *rate = d.util_aicore > d.util_vector ? d.util_aicore : d.util_vector; break;
    default: return DRV_ERROR_NOT_SUPPORT; /* DDR, DDR bandwidth: no DDR on 910B */
    }
    return DRV_ERROR_NONE;
}

EXPORT int dsmi_get_device_frequency(int device_id, int device_type, unsigned int *freq) {
    int rc = check_dev(device_id, freq);
    if (rc != DRV_ERROR_NONE) return rc;
    if (device_type < 1 || device_type > 14) return DRV_ERROR_PARA_ERROR;
    struct npu_chip_facts f;
    npu_chip_facts(npu_config()->soc, &f);
    switch (device_type) {
    case UTLRATE_TYPE_AICORE: case 7: case 9: case 11: case 12: case 13: case 14:
        *freq = (unsigned)npu_config()->soc->aicore_mhz;
        return DRV_ERROR_NONE;
    case UTLRATE_TYPE_AICPU: case UTLRATE_TYPE_CTRLCPU: *freq = f.ctrlcpu_mhz; return DRV_ERROR_NONE;
    case UTLRATE_TYPE_HBM: case 10: *freq = f.hbm_mhz; return DRV_ERROR_NONE;
    default: return DRV_ERROR_NOT_SUPPORT;
    }
}

EXPORT int dsmi_get_chip_info(int device_id, struct dsmi_chip_info_stru *chip_info) {
    int rc = check_dev(device_id, chip_info);
    if (rc != DRV_ERROR_NONE) return rc;
    struct npu_chip_facts f;
    npu_chip_facts(npu_config()->soc, &f);
    memset(chip_info, 0, sizeof *chip_info);
    snprintf((char *)chip_info->chip_type, sizeof chip_info->chip_type, "Ascend");
    snprintf((char *)chip_info->chip_name, sizeof chip_info->chip_name, "%s", f.chip_name);
    snprintf((char *)chip_info->chip_ver, sizeof chip_info->chip_ver, "%s", f.chip_ver);
    return DRV_ERROR_NONE;
}

EXPORT int dsmi_get_aicore_info(int device_id, struct dsmi_aicore_info_stru *info) {
    int rc = check_dev(device_id, info);
    struct npu_dev d;
    if (rc != DRV_ERROR_NONE || (rc = snap(device_id, &d)) != DRV_ERROR_NONE) return rc;
    info->freq = (unsigned)npu_config()->soc->aicore_mhz;
    info->curfreq = d.util_aicore > 0 ? info->freq : 800;
    return DRV_ERROR_NONE;
}

EXPORT int dsmi_get_aicpu_info(int device_id, struct dsmi_aicpu_info_stru *info) {
    int rc = check_dev(device_id, info);
    struct npu_dev d;
    if (rc != DRV_ERROR_NONE || (rc = snap(device_id, &d)) != DRV_ERROR_NONE) return rc;
    struct npu_chip_facts f;
    npu_chip_facts(npu_config()->soc, &f);
    memset(info, 0, sizeof *info);
    info->maxFreq = info->curFreq = f.ctrlcpu_mhz;
    info->aicpuNum = (unsigned)npu_config()->soc->aicpus;
    for (unsigned i = 0; i < info->aicpuNum && i < 16; i++) info->utilRate[i] = d.util_aicpu;
    return DRV_ERROR_NONE;
}

EXPORT int dsmi_get_device_temperature(int device_id, int *temperature) {
    int rc = check_dev(device_id, temperature);
    struct npu_dev d;
    if (rc != DRV_ERROR_NONE || (rc = snap(device_id, &d)) != DRV_ERROR_NONE) return rc;
    *temperature = 35 + (int)(d.util_aicore * 25 / 100); /* the model of libdcmi.so */
    return DRV_ERROR_NONE;
}

EXPORT int dsmi_get_device_power_info(int device_id, struct dsmi_power_info_stru *info) {
    int rc = check_dev(device_id, info);
    struct npu_dev d;
    if (rc != DRV_ERROR_NONE || (rc = snap(device_id, &d)) != DRV_ERROR_NONE) return rc;
    info->power = (unsigned short)(900 + d.util_aicore * 12); /* 0.1 W */
    return DRV_ERROR_NONE;
}

EXPORT int dsmi_get_device_health(int device_id, unsigned int *health) {
    int rc = check_dev(device_id, health);
    struct npu_dev d;
    if (rc != DRV_ERROR_NONE || (rc = snap(device_id, &d)) != DRV_ERROR_NONE) return rc;
    *health = d.health;
    return DRV_ERROR_NONE;
}

EXPORT int dsmi_get_version(int device_id, char *version_str, unsigned int version_len, unsigned int *ret_len) {
    int rc = check_dev(device_id, version_str);
    if (rc != DRV_ERROR_NONE) return rc;
    size_t n = strlen(npu_driver_version);
    if (ret_len == NULL || version_len <= n) return DRV_ERROR_PARA_ERROR;
    memcpy(version_str, npu_driver_version, n + 1);
    *ret_len = (unsigned)n;
    return DRV_ERROR_NONE;
}

EXPORT int dsmi_get_board_info(int device_id, struct dsmi_board_info_stru *info) {
    int rc = check_dev(device_id, info);
    if (rc != DRV_ERROR_NONE) return rc;
    /* The spec does not lay out struct dsmi_board_info_stru (the header
     * leaves it incomplete), so there is nothing we could fill safely. */
    return DRV_ERROR_NOT_SUPPORT;
}

/* dsmi_get_device_info: the MEMORY commands with a documented buffer. The
 * spec names the QOS, HOST_AICPU and SVM commands but not their buffers, so
 * they answer DRV_ERROR_NOT_SUPPORT (docs/dcmi.md). */
EXPORT int dsmi_get_device_info(unsigned int device_id, DSMI_MAIN_CMD main_cmd, unsigned int sub_cmd, void *buf,
                                unsigned int *size) {
    int rc = check_dev((int)device_id, buf);
    if (rc != DRV_ERROR_NONE) return rc;
    if (size == NULL || device_id > 64) return DRV_ERROR_PARA_ERROR;
    if (main_cmd != DSMI_MAIN_CMD_MEMORY) return DRV_ERROR_NOT_SUPPORT;
    struct npu_dev d;
    switch (sub_cmd) {
    case DSMI_SUB_CMD_MEMORY_CAPACITY: {
        if (*size < sizeof(struct dsmi_memory_info)) return DRV_ERROR_PARA_ERROR;
        if ((rc = snap((int)device_id, &d)) != DRV_ERROR_NONE) return rc;
        struct dsmi_memory_info *m = buf;
        memset(m, 0, sizeof *m);
        m->total_size = (unsigned)(d.hbm_total >> 20); /* MB */
        m->used_size = (unsigned)(npu_used_bytes(&d) >> 20);
        *size = sizeof *m;
        return DRV_ERROR_NONE;
    }
    case DSMI_SUB_CMD_MEMORY_ECC_ENABLE:
        if (*size < sizeof(unsigned int)) return DRV_ERROR_PARA_ERROR;
        *(unsigned int *)buf = 1;
        *size = sizeof(unsigned int);
        return DRV_ERROR_NONE;
    default: return DRV_ERROR_NOT_SUPPORT;
    }
}
