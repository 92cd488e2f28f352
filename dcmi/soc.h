/*
 * SoC facts of the plain-C management libraries: the catalogue generated
 * from the Go device model (zsoc.c) plus the management-only facts a
 * DCMI/DSMI client reads (board id, PCIe ids, product name), which the Go
 * side does not model (soc.c says where each comes from).
 */
#ifndef NPUEMU_DCMI_SOC_H
#define NPUEMU_DCMI_SOC_H

struct npu_soc {
    const char *name;   /* SoC_version, e.g. "Ascend910B3" */
    const char *family; /* "A2", "A3", "310P", ... */
    int aicores, cubes, vectors, aicpus;
    unsigned long long hbm_bytes;      /* nominal HBM */
    unsigned long long reserved_bytes; /* kept by the device OS, never allocatable */
    int aicore_mhz;                    /* rated AI Core clock */
};

extern const struct npu_soc npu_socs[];
extern const int npu_nsocs;
extern const char npu_default_soc[];
extern const int npu_default_devices;
extern const int npu_max_devices;
extern const char npu_driver_version[];   /* aclsysGetVersionStr("driver") */
extern const char npu_firmware_version[]; /* aclsysGetVersionStr("firmware") */

/* npu_soc_lookup returns the catalogue entry named exactly name, or NULL. */
const struct npu_soc *npu_soc_lookup(const char *name);

/* Management facts of a chip (DCMI/npu-smi view). */
struct npu_chip_facts {
    const char *chip_name;     /* name without "Ascend": "910B3" */
    const char *chip_ver;      /* "V1" */
    unsigned int board_id;     /* chip-level board id (0x32 for a 910B3 A2 module) */
    unsigned int card_board_id; /* npu-smi card-level Board ID */
    unsigned int pcie_device;  /* PCI device id (0xD802 on 910B) */
    unsigned int pcie_subsys;  /* subsystem device id */
    const char *product_name;  /* elabel / npu-smi "Product Name" */
    unsigned int hbm_mhz;      /* HBM clock */
    unsigned int ctrlcpu_mhz;  /* control CPU clock */
    int has_ddr;               /* the chip has DDR (310P); A2/A3 have HBM only */
};

void npu_chip_facts(const struct npu_soc *s, struct npu_chip_facts *f);

#endif
