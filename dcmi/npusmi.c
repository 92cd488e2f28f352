/*
 * npu-smi: the vendor's command-line view of the node, answered through the
 * DCMI API (linked in statically from libdcmi.so's sources), in the
 * vendor's layout (../shared/spec/dcmi-api.md §10) since scripts parse it:
 *
 *   npu-smi info                          summary table and process table
 *   npu-smi info -t board  -i N [-c 0]    card (or chip) board information
 *   npu-smi info -t memory -i N           memory information
 *   npu-smi info -t usages -i N           utilisation rates
 *   npu-smi info -t common -i N           common information
 *   npu-smi info -m                       card/chip/logic id mapping
 *   npu-smi -v                            version
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcmi_interface_api.h"
#include "npu.h"

#define WIDTH 98

/* row is one line of a table: spaces with text placed at columns. */
struct row {
    char c[WIDTH + 1];
};

static void row_init(struct row *r, char fill, const int *seps, char sep) {
    memset(r->c, fill, WIDTH);
    r->c[WIDTH] = '\0';
    for (; *seps >= 0; seps++) r->c[*seps] = sep;
}

static void put(struct row *r, int col, const char *fmt, ...) {
    char buf[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (size_t i = 0; buf[i] && col + (int)i < WIDTH - 1; i++) r->c[col + (int)i] = buf[i];
}

static const int main_seps[] = {0, 28, 44, 97, -1};
static const int proc_seps[] = {0, 28, 44, 71, 97, -1};
static const int edge_seps[] = {0, 97, -1};

static void rule(const int *seps, char fill) {
    struct row r;
    row_init(&r, fill, seps, '+');
    puts(r.c);
}

static const char *health_word(unsigned int h) {
    switch (h) {
    case 0: return "OK";
    case 1: return "Warning";
    case 2: return "Alarm";
    case 3: return "Critical";
    default: return "UNKNOWN";
    }
}

/* pair prints "used / total" with used left-justified in 5 characters. */
static void pair(char *out, size_t n, unsigned long long used, unsigned long long total) {
    snprintf(out, n, "%-5llu/ %llu", used, total);
}

static void bus_id(int card, char *out, size_t n) {
    struct dcmi_pcie_info_all p;
    if (dcmi_get_device_pcie_info_v2(card, 0, &p) != DCMI_OK) {
        snprintf(out, n, "NA");
        return;
    }
    snprintf(out, n, "%04X:%02X:%02X.%X", (unsigned)p.domain, p.bdf_busid, p.bdf_deviceid, p.bdf_funcid);
}

static int cards(int *list) {
    int n = 0;
    if (dcmi_get_card_list(&n, list, 64) != DCMI_OK) return -1;
    return n;
}

static int info_summary(void) {
    int list[64], n = cards(list);
    if (n < 0) return 1;
    struct row r;
    rule(edge_seps, '-');
    row_init(&r, ' ', edge_seps, '|');
    put(&r, 2, "npu-smi %s", npu_driver_version);
    put(&r, 35, "Version: %s", npu_driver_version);
    puts(r.c);
    rule(main_seps, '-');
    row_init(&r, ' ', main_seps, '|');
    put(&r, 2, "NPU"), put(&r, 8, "Name"), put(&r, 30, "Health"), put(&r, 46, "Power(W)"), put(&r, 58, "Temp(C)");
    put(&r, 76, "Hugepages-Usage(page)");
    puts(r.c);
    row_init(&r, ' ', main_seps, '|');
    put(&r, 2, "Chip"), put(&r, 30, "Bus-Id"), put(&r, 46, "AICore(%%)"), put(&r, 58, "Memory-Usage(MB)");
    put(&r, 76, "HBM-Usage(MB)");
    puts(r.c);
    rule(main_seps, '=');
    for (int i = 0; i < n; i++) {
        int c = list[i];
        struct dcmi_chip_info chip;
        struct dcmi_hbm_info hbm;
        unsigned int health = 0, aicore = 0;
        int power = 0, temp = 0;
        char buf[64];
        dcmi_get_device_chip_info(c, 0, &chip);
        dcmi_get_device_health(c, 0, &health);
        dcmi_get_device_power_info(c, 0, &power);
        dcmi_get_device_temperature(c, 0, &temp);
        dcmi_get_device_utilization_rate(c, 0, DCMI_UTILIZATION_RATE_AICORE, &aicore);
        memset(&hbm, 0, sizeof hbm);
        dcmi_get_device_hbm_info(c, 0, &hbm);
        row_init(&r, ' ', main_seps, '|');
        put(&r, 2, "%d", c), put(&r, 8, "%s", (char *)chip.chip_name), put(&r, 30, "%s", health_word(health));
        put(&r, 46, "%.1f", power / 10.0), put(&r, 58, "%d", temp);
        pair(buf, sizeof buf, 0, 0);
        put(&r, 76, "%s", buf);
        puts(r.c);
        row_init(&r, ' ', main_seps, '|');
        put(&r, 2, "0");
        bus_id(c, buf, sizeof buf);
        put(&r, 30, "%s", buf), put(&r, 46, "%u", aicore);
        pair(buf, sizeof buf, 0, 0);
        put(&r, 58, "%s", buf);
        pair(buf, sizeof buf, hbm.memory_usage, hbm.memory_size);
        put(&r, 76, "%s", buf);
        puts(r.c);
        rule(main_seps, '=');
    }
    /* process table */
    rule(main_seps, '-');
    row_init(&r, ' ', proc_seps, '|');
    put(&r, 2, "NPU"), put(&r, 10, "Chip"), put(&r, 30, "Process id"), put(&r, 46, "Process name");
    put(&r, 73, "Process memory(MB)");
    puts(r.c);
    rule(main_seps, '=');
    for (int i = 0; i < n; i++) {
        int c = list[i];
        struct dcmi_proc_mem_info procs[32];
        int np = 0;
        if (dcmi_get_device_resource_info(c, 0, procs, &np) != DCMI_OK) np = 0;
        if (np == 0) {
            row_init(&r, ' ', edge_seps, '|');
            put(&r, 2, "No running processes found in NPU %d", c);
            puts(r.c);
        }
        for (int k = 0; k < np; k++) {
            char name[64];
            if (npu_proc_name(procs[k].proc_id, name, sizeof name) != 0) snprintf(name, sizeof name, "NA");
            row_init(&r, ' ', proc_seps, '|');
            put(&r, 2, "%d", c), put(&r, 10, "0"), put(&r, 30, "%d", procs[k].proc_id), put(&r, 46, "%s", name);
            put(&r, 73, "%lu", procs[k].proc_mem_usage / (1024UL * 1024UL));
            puts(r.c);
        }
        rule(main_seps, '=');
    }
    return 0;
}

static void kv(const char *key, const char *fmt, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    printf("\t%-30s : %s\n", key, buf);
}

static void die_words(int card, enum dcmi_die_type t, char *out, size_t n) {
    struct dcmi_die_id d;
    memset(&d, 0, sizeof d);
    dcmi_get_device_die_v2(card, 0, t, &d);
    snprintf(out, n, "%08X %08X %08X %08X %08X", d.soc_die[0], d.soc_die[1], d.soc_die[2], d.soc_die[3], d.soc_die[4]);
}

static int info_board(int card, int chip) {
    struct npu_chip_facts f;
    npu_chip_facts(npu_config()->soc, &f);
    struct dcmi_pcie_info_all p;
    dcmi_get_device_pcie_info_v2(card, 0, &p);
    char bus[32];
    bus_id(card, bus, sizeof bus);
    if (chip < 0) {
        struct dcmi_elabel_info e;
        dcmi_get_card_elabel_v2(card, &e);
        kv("NPU ID", "%d", card);
        kv("Product Name", "%s", e.product_name);
        kv("Model", "%s", e.model);
        kv("Manufacturer", "%s", e.manufacturer);
        kv("Serial Number", "%s", e.serial_number);
        kv("Software Version", "%s", npu_driver_version);
        kv("Firmware Version", "%s", npu_firmware_version);
        kv("Compatibility", "OK");
        kv("Board ID", "0x%02x", f.card_board_id);
        kv("PCB ID", "A");
        kv("BOM ID", "1");
        kv("PCIe Bus Info", "%s", bus);
        kv("Slot ID", "%d", card);
        kv("Class ID", "NA");
        kv("PCI Vendor ID", "0x%04X", p.venderid);
        kv("PCI Device ID", "0x%04X", p.deviceid);
        kv("Subsystem Vendor ID", "0x%04X", p.subvenderid);
        kv("Subsystem Device ID", "0x%04X", p.subdeviceid);
        kv("Chip Count", "1");
        return 0;
    }
    struct dcmi_chip_info ci;
    struct dcmi_board_info bi;
    dcmi_get_device_chip_info(card, 0, &ci);
    dcmi_get_device_board_info(card, 0, &bi);
    char die[64];
    kv("NPU ID", "%d", card);
    kv("Chip ID", "%d", chip);
    kv("Chip Type", "%s", (char *)ci.chip_type);
    kv("Chip Name", "%s", (char *)ci.chip_name);
    kv("Chip Version", "%s", (char *)ci.chip_ver);
    kv("Board ID", "0x%02x", bi.board_id);
    kv("PCB ID", "NA");
    kv("BOM ID", "%u", bi.bom_id);
    die_words(card, VDIE, die, sizeof die);
    kv("VDie ID", "%s", die);
    die_words(card, NDIE, die, sizeof die);
    kv("NDie ID", "%s", die);
    kv("Chip Position ID", "0");
    kv("PCIe Bus Info", "%s", bus);
    kv("Firmware Version", "%s", npu_firmware_version);
    return 0;
}

static int info_memory(int card) {
    struct dcmi_hbm_info h;
    memset(&h, 0, sizeof h);
    dcmi_get_device_hbm_info(card, 0, &h);
    kv("NPU ID", "%d", card);
    kv("DDR Capacity(MB)", "0");
    kv("DDR Clock Speed(MHz)", "0");
    kv("HBM Capacity(MB)", "%llu", h.memory_size);
    kv("HBM Clock Speed(MHz)", "%u", h.freq);
    kv("HBM Temperature(C)", "%d", h.temp);
    kv("HBM Manufacturer ID", "0x%X", 0x57u);
    kv("Chip ID", "0");
    return 0;
}

static unsigned util(int card, int type) {
    unsigned v = 0;
    dcmi_get_device_utilization_rate(card, 0, type, &v);
    return v;
}

static int info_usages(int card) {
    struct dcmi_hbm_info h;
    memset(&h, 0, sizeof h);
    dcmi_get_device_hbm_info(card, 0, &h);
    kv("NPU ID", "%d", card);
    kv("Chip Count", "1");
    printf("\n");
    kv("DDR Capacity(MB)", "0");
    kv("DDR Usage Rate(%)", "0");
    kv("DDR Hugepages Total(page)", "0");
    kv("DDR Hugepages Usage Rate(%)", "0");
    kv("HBM Capacity(MB)", "%llu", h.memory_size);
    kv("HBM Usage Rate(%)", "%u", util(card, DCMI_UTILIZATION_RATE_HBM));
    kv("Aicore Usage Rate(%)", "%u", util(card, DCMI_UTILIZATION_RATE_AICORE));
    kv("Aivector Usage Rate(%)", "%u", util(card, DCMI_UTILIZATION_RATE_VECTORCORE));
    kv("Aicpu Usage Rate(%)", "%u", util(card, DCMI_UTILIZATION_RATE_AICPU));
    kv("Ctrlcpu Usage Rate(%)", "%u", util(card, DCMI_UTILIZATION_RATE_CTRLCPU));
    kv("DDR Bandwidth Usage Rate(%)", "0");
    kv("HBM Bandwidth Usage Rate(%)", "%u", util(card, DCMI_UTILIZATION_RATE_HBM_BANDWIDTH));
    kv("Chip ID", "0");
    return 0;
}

static int info_common(int card) {
    unsigned rated = 0, cur = 0;
    int temp = 0, power = 0;
    struct dcmi_chip_info ci;
    dcmi_get_device_chip_info(card, 0, &ci);
    dcmi_get_device_frequency(card, 0, DCMI_FREQ_AICORE_MAX, &rated);
    dcmi_get_device_frequency(card, 0, DCMI_FREQ_AICORE_CURRENT_, &cur);
    dcmi_get_device_temperature(card, 0, &temp);
    dcmi_get_device_power_info(card, 0, &power);
    kv("NPU ID", "%d", card);
    kv("Chip Count", "1");
    printf("\n");
    kv("Chip ID", "0");
    kv("Memory Usage Rate(%)", "0");
    kv("HBM Usage Rate(%)", "%u", util(card, DCMI_UTILIZATION_RATE_HBM));
    kv("Aicore Usage Rate(%)", "%u", util(card, DCMI_UTILIZATION_RATE_AICORE));
    kv("Aicore Freq(MHZ)", "%u", rated);
    kv("Aicore curFreq(MHZ)", "%u", cur);
    kv("Aicore Count", "%u", ci.aicore_cnt);
    kv("Temperature(C)", "%d", temp);
    kv("NPU Real-time Power(W)", "%.1f", power / 10.0);
    printf("\n");
    kv("Chip Name", "mcu");
    kv("Temperature(C)", "%d", temp - 5);
    return 0;
}

static int info_mapping(void) {
    int list[64], n = cards(list);
    if (n < 0) return 1;
    printf("\t%-31s%-31s%-31s%s\n", "NPU ID", "Chip ID", "Chip Logic ID", "Chip Name");
    for (int i = 0; i < n; i++) {
        struct dcmi_chip_info ci;
        dcmi_get_device_chip_info(list[i], 0, &ci);
        char name[80];
        snprintf(name, sizeof name, "%s %s", (char *)ci.chip_type, (char *)ci.chip_name);
        printf("\t%-31d%-31d%-31d%s\n", list[i], 0, list[i], name);
        printf("\t%-31d%-31d%-31s%s\n", list[i], 1, "-", "Mcu");
    }
    return 0;
}

static int usage(void) {
    fprintf(stderr,
            "Usage: npu-smi info [-m] [-t board|memory|usages|common -i card_id [-c chip_id]]\n"
            "       npu-smi -v\n");
    return 1;
}

int main(int argc, char **argv) {
    if (dcmi_init() != DCMI_OK) {
        fprintf(stderr, "npu-smi: dcmi module initialize failed: %s\n", npu_last_error());
        return 1;
    }
    if (argc == 2 && (strcmp(argv[1], "-v") == 0 || strcmp(argv[1], "--version") == 0)) {
        printf("npu-smi version: %s\n", npu_driver_version);
        return 0;
    }
    if (argc < 2 || strcmp(argv[1], "info") != 0) return usage();
    const char *type = NULL;
    int card = -1, chip = -1, map = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "-m") == 0) map = 1;
        else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) type = argv[++i];
        else if (strcmp(argv[i], "-i") == 0 && i + 1 < argc) card = atoi(argv[++i]);
        else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) chip = atoi(argv[++i]);
        else return usage();
    }
    if (map) return info_mapping();
    if (type == NULL) return info_summary();
    int n = 0;
    if (dcmi_get_device_num_in_card(card, &n) != DCMI_OK) {
        fprintf(stderr, "Error: the card id %d is invalid (valid: 0 to %d).\n", card, npu_config()->ndev - 1);
        return 1;
    }
    if (chip > 0) {
        fprintf(stderr, "Error: the chip id %d is invalid (valid: 0).\n", chip);
        return 1;
    }
    if (strcmp(type, "board") == 0) return info_board(card, chip);
    if (chip >= 0) return usage();
    if (strcmp(type, "memory") == 0) return info_memory(card);
    if (strcmp(type, "usages") == 0) return info_usages(card);
    if (strcmp(type, "common") == 0) return info_common(card);
    fprintf(stderr, "Error: info type %s is not supported by npuemu's npu-smi (supported: board, memory, usages, common).\n", type);
    return 1;
}
