/*
 * libdcmi.so: the DCMI management API over the emulated node (npu.h).
 * One function per documented entry point, each validating its arguments
 * first and returning the documented code (../shared/spec/dcmi-api.md
 * §3, §6). Identifier model: one card per chip, card id = logic id =
 * physical id = the node's device index, device_id 0 = the NPU chip,
 * device_id 1 = the card's MCU (as on an Atlas 800T A2).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dcmi_interface_api.h"
#include "npu.h"

#define MCU_ID 1

/* check_chip validates (card_id, device_id) for a call that addresses the
 * NPU chip: -8012 before dcmi_init, -8001 for a bad card or device, -8255
 * for the MCU (which these calls do not serve). */
static int check_chip(int card_id, int device_id) {
    if (!npu_ready()) return DCMI_ERR_CODE_NOT_REDAY;
    if (card_id < 0 || card_id >= npu_config()->ndev || device_id < 0 || device_id > MCU_ID)
        return DCMI_ERR_CODE_INVALID_PARAMETER;
    if (device_id == MCU_ID) return DCMI_ERR_CODE_NOT_SUPPORT;
    return DCMI_OK;
}

#define CHIP(card, dev, ptr)                          \
    do {                                              \
        int rc_ = check_chip((card), (dev));          \
        if (rc_ != DCMI_OK) return rc_;               \
        if ((ptr) == NULL) return DCMI_ERR_CODE_INVALID_PARAMETER; \
    } while (0)

static void copy_str(unsigned char *dst, size_t n, const char *src) {
    memset(dst, 0, n);
    snprintf((char *)dst, n, "%s", src);
}

static int snapshot(int card, struct npu_dev *d) {
    return npu_read_device(card, d) == 0 ? DCMI_OK : DCMI_ERR_CODE_INNER_ERR;
}

static const struct npu_soc *soc(void) { return npu_config()->soc; }

int dcmi_init(void) {
    char err[512];
    if (npu_init(err, sizeof err) != 0) {
        fprintf(stderr, "npuemu libdcmi: %s\n", err);
        return DCMI_ERR_CODE_INNER_ERR;
    }
    return DCMI_OK;
}

int dcmi_get_dcmi_version(char *dcmi_ver, int buf_size) {
    if (dcmi_ver == NULL || buf_size < 16) return DCMI_ERR_CODE_INVALID_PARAMETER;
    if ((size_t)buf_size <= strlen(npu_driver_version)) return DCMI_ERR_CODE_INVALID_PARAMETER;
    snprintf(dcmi_ver, (size_t)buf_size, "%s", npu_driver_version);
    return DCMI_OK;
}

int dcmi_get_card_list(int *card_num, int *card_list, int list_len) {
    if (!npu_ready()) return DCMI_ERR_CODE_INNER_ERR;
    int n = npu_config()->ndev;
    if (card_num == NULL || card_list == NULL || list_len <= 0 || list_len < n)
        return DCMI_ERR_CODE_INVALID_PARAMETER;
    for (int i = 0; i < n; i++) card_list[i] = i;
    *card_num = n;
    return DCMI_OK;
}

int dcmi_get_card_num_list(int *card_num, int *card_list, int list_len) {
    return dcmi_get_card_list(card_num, card_list, list_len);
}

static int check_card(int card_id) {
    if (!npu_ready()) return DCMI_ERR_CODE_NOT_REDAY;
    if (card_id < 0 || card_id >= npu_config()->ndev) return DCMI_ERR_CODE_INVALID_PARAMETER;
    return DCMI_OK;
}

int dcmi_get_device_num_in_card(int card_id, int *device_num) {
    int rc = check_card(card_id);
    if (rc != DCMI_OK) return rc;
    if (device_num == NULL) return DCMI_ERR_CODE_INVALID_PARAMETER;
    *device_num = 1;
    return DCMI_OK;
}

int dcmi_get_device_id_in_card(int card_id, int *device_id_max, int *mcu_id, int *cpu_id) {
    int rc = check_card(card_id);
    if (rc != DCMI_OK) return rc;
    if (device_id_max == NULL || mcu_id == NULL || cpu_id == NULL) return DCMI_ERR_CODE_INVALID_PARAMETER;
    *device_id_max = 1;
    *mcu_id = MCU_ID;
    *cpu_id = -1;
    return DCMI_OK;
}

int dcmi_get_device_logic_id(int *device_logic_id, int card_id, int device_id) {
    CHIP(card_id, device_id, device_logic_id);
    *device_logic_id = card_id;
    return DCMI_OK;
}

int dcmi_get_card_id_device_id_from_logicid(int *card_id, int *device_id, unsigned int device_logic_id) {
    if (!npu_ready()) return DCMI_ERR_CODE_NOT_REDAY;
    if (card_id == NULL || device_id == NULL) return DCMI_ERR_CODE_INVALID_PARAMETER;
    if (device_logic_id >= (unsigned)npu_config()->ndev) return DCMI_ERR_CODE_DEVICE_NOT_EXIST;
    *card_id = (int)device_logic_id;
    *device_id = 0;
    return DCMI_OK;
}

static int map_id(unsigned int in, unsigned int *out) {
    if (!npu_ready()) return DCMI_ERR_CODE_NOT_REDAY;
    if (out == NULL) return DCMI_ERR_CODE_INVALID_PARAMETER;
    if (in >= (unsigned)npu_config()->ndev) return DCMI_ERR_CODE_DEVICE_NOT_EXIST;
    *out = in; /* physical ids equal logic ids (as drvDeviceGetPhyIdByIndex) */
    return DCMI_OK;
}

int dcmi_get_device_phyid_from_logicid(unsigned int logicid, unsigned int *phyid) { return map_id(logicid, phyid); }

int dcmi_get_device_logicid_from_phyid(unsigned int phyid, unsigned int *logicid) { return map_id(phyid, logicid); }

int dcmi_get_device_type(int card_id, int device_id, enum dcmi_unit_type *device_type) {
    int rc = check_card(card_id);
    if (rc != DCMI_OK) return rc;
    if (device_type == NULL || device_id < 0 || device_id > MCU_ID) return DCMI_ERR_CODE_INVALID_PARAMETER;
    *device_type = device_id == MCU_ID ? MCU_TYPE : NPU_TYPE;
    return DCMI_OK;
}

int dcmi_get_device_chip_info(int card_id, int device_id, struct dcmi_chip_info *chip_info) {
    CHIP(card_id, device_id, chip_info);
    struct npu_chip_facts f;
    npu_chip_facts(soc(), &f);
    copy_str(chip_info->chip_type, sizeof chip_info->chip_type, "Ascend");
    copy_str(chip_info->chip_name, sizeof chip_info->chip_name, f.chip_name);
    copy_str(chip_info->chip_ver, sizeof chip_info->chip_ver, f.chip_ver);
    chip_info->aicore_cnt = (unsigned)soc()->aicores;
    return DCMI_OK;
}

int dcmi_get_device_chip_info_v2(int card_id, int device_id, struct dcmi_chip_info_v2 *chip_info) {
    CHIP(card_id, device_id, chip_info);
    struct dcmi_chip_info v1;
    dcmi_get_device_chip_info(card_id, device_id, &v1);
    memcpy(chip_info, &v1, sizeof v1);
    copy_str(chip_info->npu_name, sizeof chip_info->npu_name, (const char *)v1.chip_name);
    return DCMI_OK;
}

int dcmi_get_device_board_info(int card_id, int device_id, struct dcmi_board_info *board_info) {
    CHIP(card_id, device_id, board_info);
    struct npu_chip_facts f;
    npu_chip_facts(soc(), &f);
    board_info->board_id = f.board_id;
    board_info->pcb_id = 0;
    board_info->bom_id = 1;
    board_info->slot_id = (unsigned)card_id;
    return DCMI_OK;
}

int dcmi_get_mainboard_id(int card_id, int device_id, unsigned int *mainboard_id) {
    CHIP(card_id, device_id, mainboard_id);
    *mainboard_id = 0x0; /* "POD A" of the A900T PoD family; not an A3/A5 id */
    return DCMI_OK;
}

/* Product type, NPU work mode, brother device and multi-die policy exist on
 * inference cards, 910A and A3 only: a 910B answers -8255 (spec §3). */
int dcmi_get_product_type(int card_id, int device_id, char *product_type_str, int buf_size) {
    CHIP(card_id, device_id, product_type_str);
    if (buf_size <= 0) return DCMI_ERR_CODE_INVALID_PARAMETER;
    return DCMI_ERR_CODE_NOT_SUPPORT;
}

int dcmi_get_npu_work_mode(int card_id, unsigned char *work_mode) {
    int rc = check_card(card_id);
    if (rc != DCMI_OK) return rc;
    if (work_mode == NULL) return DCMI_ERR_CODE_INVALID_PARAMETER;
    return DCMI_ERR_CODE_NOT_SUPPORT;
}

int dcmi_get_netdev_brother_device(int card_id, int device_id, int *brother_card_id) {
    CHIP(card_id, device_id, brother_card_id);
    return DCMI_ERR_CODE_NOT_SUPPORT;
}

int dcmi_set_multi_die_policy(enum dcmi_multi_die_policy policy) {
    if (!npu_ready()) return DCMI_ERR_CODE_NOT_REDAY;
    if ((int)policy < 0 || policy >= DCMI_MULTI_DIE_POLICY_MAX) return DCMI_ERR_CODE_INVALID_PARAMETER;
    return DCMI_ERR_CODE_NOT_SUPPORT;
}

int dcmi_get_multi_die_policy(enum dcmi_multi_die_policy *policy) {
    if (!npu_ready()) return DCMI_ERR_CODE_NOT_REDAY;
    if (policy == NULL) return DCMI_ERR_CODE_INVALID_PARAMETER;
    return DCMI_ERR_CODE_NOT_SUPPORT;
}

int dcmi_get_device_die_v2(int card_id, int device_id, enum dcmi_die_type input_type, struct dcmi_die_id *die_id) {
    CHIP(card_id, device_id, die_id);
    switch (input_type) {
    case VDIE:
        for (int i = 0; i < DIE_ID_COUNT; i++) die_id->soc_die[i] = npu_die_word(card_id, i);
        return DCMI_OK;
    case NDIE: /* 910A only: zeros on 910B */
        memset(die_id, 0, sizeof *die_id);
        return DCMI_OK;
    case DDIE:
        return DCMI_ERR_CODE_NOT_SUPPORT; /* A5 only */
    default:
        return DCMI_ERR_CODE_INVALID_PARAMETER;
    }
}

/* PCIe bus numbers of the eight NPUs of an A2 server in npu-smi order. */
static const unsigned int a2_bus[8] = {0xC1, 0xC2, 0x81, 0x82, 0x01, 0x02, 0x41, 0x42};

unsigned int npu_pcie_bus(int card) { return card < 8 ? a2_bus[card] : (unsigned)(0x10 + card); }

int dcmi_get_device_pcie_info_v2(int card_id, int device_id, struct dcmi_pcie_info_all *pcie_info) {
    CHIP(card_id, device_id, pcie_info);
    struct npu_chip_facts f;
    npu_chip_facts(soc(), &f);
    memset(pcie_info, 0, sizeof *pcie_info);
    pcie_info->venderid = 0x19E5;
    pcie_info->subvenderid = 0x19E5;
    pcie_info->deviceid = f.pcie_device;
    pcie_info->subdeviceid = f.pcie_subsys;
    pcie_info->domain = 0;
    pcie_info->bdf_busid = npu_pcie_bus(card_id);
    return DCMI_OK;
}

int dcmi_get_card_elabel_v2(int card_id, struct dcmi_elabel_info *elabel_info) {
    int rc = check_card(card_id);
    if (rc != DCMI_OK) return rc;
    if (elabel_info == NULL) return DCMI_ERR_CODE_INVALID_PARAMETER;
    struct npu_chip_facts f;
    npu_chip_facts(soc(), &f);
    memset(elabel_info, 0, sizeof *elabel_info);
    snprintf(elabel_info->product_name, MAX_LENGTH, "%s", f.product_name);
    snprintf(elabel_info->model, MAX_LENGTH, "NA");
    snprintf(elabel_info->manufacturer, MAX_LENGTH, "Huawei");
    snprintf(elabel_info->manufacturer_date, MAX_LENGTH, "NA");
    snprintf(elabel_info->serial_number, MAX_LENGTH, "NPUEMU%08X%02d", npu_die_word(card_id, 0), card_id);
    return DCMI_OK;
}

int dcmi_get_affinity_cpu_info_by_device_id(int card_id, int device_id, char *affinity_cpu, int *length) {
    CHIP(card_id, device_id, affinity_cpu);
    if (length == NULL) return DCMI_ERR_CODE_INVALID_PARAMETER;
    /* The emulated chips hang off no PCIe root: there is no NUMA affinity to
     * report, so the call is unsupported, as on products without it. */
    return DCMI_ERR_CODE_NOT_SUPPORT;
}

int dcmi_get_device_health(int card_id, int device_id, unsigned int *health) {
    int rc = check_card(card_id);
    if (rc != DCMI_OK) return rc;
    if (health == NULL || device_id < 0 || device_id > MCU_ID) return DCMI_ERR_CODE_INVALID_PARAMETER;
    if (device_id == MCU_ID) {
        *health = 0; /* the MCU is not modelled and never faults */
        return DCMI_OK;
    }
    struct npu_dev d;
    if ((rc = snapshot(card_id, &d)) != DCMI_OK) return rc;
    *health = d.health;
    return DCMI_OK;
}

int dcmi_get_device_errorcode_v2(int card_id, int device_id, int *error_count, unsigned int *error_code_list,
                                 unsigned int list_len) {
    CHIP(card_id, device_id, error_count);
    if (error_code_list == NULL || list_len == 0) return DCMI_ERR_CODE_INVALID_PARAMETER;
    struct npu_dev d;
    int rc = snapshot(card_id, &d);
    if (rc != DCMI_OK) return rc;
    int n = d.nerr < (int)list_len ? d.nerr : (int)list_len;
    for (int i = 0; i < n; i++) error_code_list[i] = d.err[i];
    *error_count = n;
    return DCMI_OK;
}

int dcmi_get_device_boot_status(int card_id, int device_id, enum dcmi_boot_status *boot_status) {
    CHIP(card_id, device_id, boot_status);
    *boot_status = (enum dcmi_boot_status)16; /* system start finished (spec §4) */
    return DCMI_OK;
}

#define MB (1024ULL * 1024ULL)

static unsigned int pct(uint64_t part, uint64_t whole) {
    if (whole == 0) return 0;
    uint64_t p = (part * 100 + whole / 2) / whole;
    return p > 100 ? 100 : (unsigned)p;
}

/* The thermal and power model: idle values of an A2 host, rising with AI
 * Core load (35 C and 90 W idle, +25 C and +120 W at 100 %). */
static int temp_of(const struct npu_dev *d) { return 35 + (int)(d->util_aicore * 25 / 100); }
static int power_of(const struct npu_dev *d) { return 900 + (int)(d->util_aicore * 12); }

int dcmi_get_device_hbm_info(int card_id, int device_id, struct dcmi_hbm_info *hbm_info) {
    CHIP(card_id, device_id, hbm_info);
    struct npu_dev d;
    int rc = snapshot(card_id, &d);
    if (rc != DCMI_OK) return rc;
    struct npu_chip_facts f;
    npu_chip_facts(soc(), &f);
    hbm_info->memory_size = d.hbm_total / MB;
    hbm_info->freq = f.hbm_mhz;
    hbm_info->memory_usage = npu_used_bytes(&d) / MB;
    hbm_info->temp = temp_of(&d) - 2;
    hbm_info->bandwith_util_rate = d.util_aicore; /* kernels are what moves HBM data */
    return DCMI_OK;
}

int dcmi_get_device_memory_info_v3(int card_id, int device_id, struct dcmi_get_memory_info_stru *memory_info) {
    CHIP(card_id, device_id, memory_info);
    struct npu_chip_facts f;
    npu_chip_facts(soc(), &f);
    if (!f.has_ddr) return DCMI_ERR_CODE_NOT_SUPPORT; /* A2/A3: HBM only, no DDR view */
    struct npu_dev d;
    int rc = snapshot(card_id, &d);
    if (rc != DCMI_OK) return rc;
    uint64_t used = npu_used_bytes(&d);
    memory_info->memory_size = d.hbm_total / MB;
    memory_info->memory_available = (d.hbm_total - (used < d.hbm_total ? used : d.hbm_total)) / MB;
    memory_info->freq = f.hbm_mhz;
    memory_info->hugepagesize = 2048;
    memory_info->hugepages_total = 0;
    memory_info->hugepages_free = 0;
    memory_info->utiliza = pct(used, d.hbm_total);
    return DCMI_OK;
}

static int util_of(const struct npu_dev *d, int input_type, unsigned int *out) {
    switch (input_type) {
    case DCMI_UTILIZATION_RATE_AICORE: *out = d->util_aicore; return DCMI_OK;
    case DCMI_UTILIZATION_RATE_VECTORCORE: *out = d->util_vector; return DCMI_OK;
    case DCMI_UTILIZATION_RATE_AICPU: *out = d->util_aicpu; return DCMI_OK;
    case DCMI_UTILIZATION_RATE_CTRLCPU: *out = 0; return DCMI_OK; /* no control-CPU work is modelled */
    case DCMI_UTILIZATION_RATE_HBM: *out = pct(npu_used_bytes(d), d->hbm_total); return DCMI_OK;
    case DCMI_UTILIZATION_RATE_HBM_BANDWIDTH: *out = d->util_aicore; return DCMI_OK;
    case DCMI_UTILIZATION_RATE_NPU:
        *out = d->util_aicore > d->util_vector ? d->util_aicore : d->util_vector;
        return DCMI_OK;
    default: return DCMI_ERR_CODE_NOT_SUPPORT; /* DDR, DDR bandwidth, AI Cube (v1) on 910B */
    }
}

int dcmi_get_device_utilization_rate(int card_id, int device_id, int input_type, unsigned int *utilization_rate) {
    CHIP(card_id, device_id, utilization_rate);
    if (input_type <= 0) return DCMI_ERR_CODE_INVALID_PARAMETER;
    struct npu_dev d;
    int rc = snapshot(card_id, &d);
    if (rc != DCMI_OK) return rc;
    return util_of(&d, input_type, utilization_rate);
}

int dcmi_get_device_multi_utilization_rate(int card_id, int device_id, struct dcmi_multi_utilization_info *util_info) {
    CHIP(card_id, device_id, util_info);
    struct npu_dev d;
    int rc = snapshot(card_id, &d);
    if (rc != DCMI_OK) return rc;
    memset(util_info, 0, sizeof *util_info);
    util_info->aic_util = d.util_aicore;
    util_info->aiv_util = d.util_vector;
    util_info->aicore_util = d.util_aicore;
    util_of(&d, DCMI_UTILIZATION_RATE_NPU, &util_info->npu_util);
    return DCMI_OK;
}

int dcmi_get_device_multi_utilization_rate_period(int card_id, int device_id,
                                                  struct dcmi_multi_utilization_info *util_info, int period) {
    if (period <= 0) return DCMI_ERR_CODE_INVALID_PARAMETER;
    /* The node's counters already average over their window (docs/dcmi.md). */
    return dcmi_get_device_multi_utilization_rate(card_id, device_id, util_info);
}

#define DCMI_MAX_PROC_REPORTED 32

int dcmi_get_device_resource_info(int card_id, int device_id, struct dcmi_proc_mem_info *proc_info, int *proc_num) {
    CHIP(card_id, device_id, proc_info);
    if (proc_num == NULL) return DCMI_ERR_CODE_INVALID_PARAMETER;
    struct npu_dev d;
    int rc = snapshot(card_id, &d);
    if (rc != DCMI_OK) return rc;
    int n = d.nproc < DCMI_MAX_PROC_REPORTED ? d.nproc : DCMI_MAX_PROC_REPORTED;
    for (int i = 0; i < n; i++) {
        proc_info[i].proc_id = d.proc[i].pid;
        proc_info[i].proc_mem_usage = (unsigned long)d.proc[i].bytes;
    }
    *proc_num = n;
    return DCMI_OK;
}

int dcmi_get_device_temperature(int card_id, int device_id, int *temperature) {
    CHIP(card_id, device_id, temperature);
    struct npu_dev d;
    int rc = snapshot(card_id, &d);
    if (rc != DCMI_OK) return rc;
    *temperature = temp_of(&d);
    return DCMI_OK;
}

int dcmi_get_device_power_info(int card_id, int device_id, int *power) {
    CHIP(card_id, device_id, power);
    struct npu_dev d;
    int rc = snapshot(card_id, &d);
    if (rc != DCMI_OK) return rc;
    *power = power_of(&d);
    return DCMI_OK;
}

int dcmi_get_device_voltage(int card_id, int device_id, unsigned int *voltage) {
    CHIP(card_id, device_id, voltage);
    *voltage = 80; /* 0.80 V core supply, in 0.01 V */
    return DCMI_OK;
}

int dcmi_get_device_frequency(int card_id, int device_id, enum dcmi_freq_type input_type, unsigned int *frequency) {
    CHIP(card_id, device_id, frequency);
    struct npu_chip_facts f;
    npu_chip_facts(soc(), &f);
    switch (input_type) {
    case DCMI_FREQ_CTRLCPU: *frequency = f.ctrlcpu_mhz; return DCMI_OK;
    case DCMI_FREQ_HBM: *frequency = f.hbm_mhz; return DCMI_OK;
    case DCMI_FREQ_AICORE_MAX: *frequency = (unsigned)soc()->aicore_mhz; return DCMI_OK;
    case DCMI_FREQ_AICORE_CURRENT_: {
        struct npu_dev d;
        int rc = snapshot(card_id, &d);
        if (rc != DCMI_OK) return rc;
        *frequency = d.util_aicore > 0 ? (unsigned)soc()->aicore_mhz : 800; /* idle clock 800 MHz */
        return DCMI_OK;
    }
    case DCMI_FREQ_DDR:
    case DCMI_FREQ_VECTORCORE_CURRENT: return DCMI_ERR_CODE_NOT_SUPPORT;
    default: return DCMI_ERR_CODE_INVALID_PARAMETER;
    }
}

int dcmi_get_device_ecc_info(int card_id, int device_id, enum dcmi_device_type input_type,
                             struct dcmi_ecc_info *device_ecc_info) {
    CHIP(card_id, device_id, device_ecc_info);
    if (input_type != DCMI_DEVICE_TYPE_HBM) {
        if ((int)input_type < 0 || (input_type > DCMI_HBM_RECORDED_MULTI_ADDR && input_type != DCMI_DEVICE_TYPE_NONE))
            return DCMI_ERR_CODE_INVALID_PARAMETER;
        return DCMI_ERR_CODE_NOT_SUPPORT; /* 910B: HBM only */
    }
    /* 28 bytes only: clients built on the driver header allocate the 7-field struct. */
    memset(device_ecc_info, 0, 28);
    device_ecc_info->enable_flag = 1;
    return DCMI_OK;
}

/* hccn_address reads address_<phy>=a.b.c.d from the RoCE configuration
 * (NPUEMU_HCCN_CONF, default /etc/hccn.conf). 0 when found. */
static int hccn_address(int phy, unsigned char ip4[4]) {
    const char *path = getenv("NPUEMU_HCCN_CONF");
    if (path == NULL || *path == '\0') path = "/etc/hccn.conf";
    FILE *f = fopen(path, "r");
    if (f == NULL) return -1;
    char line[256], key[32];
    snprintf(key, sizeof key, "address_%d=", phy);
    int found = -1;
    while (found != 0 && fgets(line, sizeof line, f) != NULL) {
        unsigned a, b, c, e;
        if (strncmp(line, key, strlen(key)) == 0 &&
            sscanf(line + strlen(key), "%u.%u.%u.%u", &a, &b, &c, &e) == 4 && a < 256 && b < 256 && c < 256 && e < 256) {
            ip4[0] = (unsigned char)a, ip4[1] = (unsigned char)b, ip4[2] = (unsigned char)c, ip4[3] = (unsigned char)e;
            found = 0;
        }
    }
    fclose(f);
    return found;
}

int dcmi_get_device_network_health(int card_id, int device_id, enum dcmi_rdfx_detect_result *result) {
    CHIP(card_id, device_id, result);
    unsigned char ip[4];
    *result = hccn_address(card_id, ip) == 0 ? DCMI_RDFX_DETECT_OK : DCMI_RDFX_DETECT_INIT;
    return DCMI_OK;
}

int dcmi_get_device_ip(int card_id, int device_id, enum dcmi_port_type input_type, int port_id,
                       struct dcmi_ip_addr *ip, struct dcmi_ip_addr *mask) {
    CHIP(card_id, device_id, ip);
    if (mask == NULL || port_id < 0 || (input_type != DCMI_VNIC_PORT && input_type != DCMI_ROCE_PORT))
        return DCMI_ERR_CODE_INVALID_PARAMETER;
    if (ip->ip_type == DCMI_IPADDR_TYPE_V6) return DCMI_ERR_CODE_CONFIG_INFO_NOT_EXIST;
    unsigned char a[4];
    if (input_type != DCMI_ROCE_PORT || port_id != 0 || hccn_address(card_id, a) != 0)
        return DCMI_ERR_CODE_CONFIG_INFO_NOT_EXIST;
    memset(&ip->u_addr, 0, sizeof ip->u_addr);
    memcpy(ip->u_addr.ip4, a, 4);
    ip->ip_type = DCMI_IPADDR_TYPE_V4;
    memset(mask, 0, sizeof *mask);
    mask->u_addr.ip4[0] = mask->u_addr.ip4[1] = mask->u_addr.ip4[2] = 255;
    mask->ip_type = DCMI_IPADDR_TYPE_V4;
    return DCMI_OK;
}

int dcmi_get_pcie_link_bandwidth_info(int card_id, int device_id, struct dcmi_pcie_link_bandwidth_info *info) {
    CHIP(card_id, device_id, info);
    if (info->profiling_time <= 0) return DCMI_ERR_CODE_INVALID_PARAMETER;
    int t = info->profiling_time;
    memset(info, 0, sizeof *info); /* host<->device copies are not sampled per link: all zero */
    info->profiling_time = t;
    return DCMI_OK;
}

int dcmi_get_hccs_link_bandwidth_info(int card_id, int device_id, struct dcmi_hccs_bandwidth_info *info) {
    CHIP(card_id, device_id, info);
    if (info->profiling_time <= 0) return DCMI_ERR_CODE_INVALID_PARAMETER;
    int t = info->profiling_time;
    memset(info, 0, sizeof *info);
    info->profiling_time = t;
    return DCMI_OK;
}
