/*
 * Management facts per SoC. Sources (../shared/spec/dcmi-api.md): A2 board
 * ids from the constants table (910B1 0x30, 910B2 0x31, 910B3 0x32, 910B4
 * 0x33, 910B4-1 0x38), PCI ids 0x19E5/0xD802 on 910B, HBM 1600 MHz, the
 * 910B3 module's product name IT21HMDC_Bin6 and card-level board id 0x62
 * (observed npu-smi outputs). Values for other families are npuemu's
 * choices, flagged in docs/dcmi.md: the spec describes an A2 host.
 */
#include <string.h>

#include "soc.h"

const struct npu_soc *npu_soc_lookup(const char *name) {
    if (name == NULL) return NULL;
    for (int i = 0; i < npu_nsocs; i++)
        if (strcmp(npu_socs[i].name, name) == 0) return &npu_socs[i];
    return NULL;
}

struct board_row {
    const char *soc;
    unsigned int board_id, card_board_id;
    const char *product;
};

static const struct board_row boards[] = {
    {"Ascend910B1", 0x30, 0x62, "IT21HMDC_Bin3"},
    {"Ascend910B2", 0x31, 0x62, "IT21HMDC_Bin0"},
    {"Ascend910B2C", 0x31, 0x62, "IT21HMDC_Bin0"},
    {"Ascend910B3", 0x32, 0x62, "IT21HMDC_Bin6"},
    {"Ascend910B4", 0x33, 0x67, "IT21HMDC_Bin2"},
    {"Ascend910B4-1", 0x38, 0x67, "IT21HMDC_Bin2X_1"},
};

void npu_chip_facts(const struct npu_soc *s, struct npu_chip_facts *f) {
    memset(f, 0, sizeof *f);
    f->chip_name = s->name;
    if (strncmp(s->name, "Ascend", 6) == 0) f->chip_name = s->name + 6;
    f->chip_ver = "V1";
    f->hbm_mhz = 1600;
    f->ctrlcpu_mhz = 1900;
    f->pcie_subsys = 0x3002;
    f->board_id = 0x32;
    f->card_board_id = 0x62;
    f->product_name = "NA";
    if (strcmp(s->family, "A2") == 0) {
        f->pcie_device = 0xD802;
    } else if (strcmp(s->family, "A3") == 0) {
        f->pcie_device = 0xD803;
        f->board_id = 0xB0; /* an A3 id: clients then treat the chip as Ascend910A3 */
        f->card_board_id = 0xB0;
    } else if (strcmp(s->family, "310P") == 0) {
        f->pcie_device = 0xD500;
        f->has_ddr = 1;
        f->board_id = 0x0;
    } else if (strcmp(s->family, "A1") == 0) {
        f->pcie_device = 0xD801;
    } else {
        f->pcie_device = 0xD802;
    }
    for (unsigned i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        if (strcmp(boards[i].soc, s->name) == 0) {
            f->board_id = boards[i].board_id;
            f->card_board_id = boards[i].card_board_id;
            f->product_name = boards[i].product;
        }
    }
}
