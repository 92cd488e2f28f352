/* dcmi_basic: DCMI on a node no process has used yet (dcmi-api.md §3, §6,
 * §8, §12): the 8 x Ascend 910B3 identity of an Atlas 800T A2, idle
 * telemetry, the documented codes for bad input and for what a 910B does
 * not support, and dcmi_init's idempotence.
 *
 * needs: emulator
 * link: -ldcmi
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dcmi_interface_api.h"

int main(void) {
    char node[64];
    snprintf(node, sizeof node, "/tmp/npuemu-dcmi-basic-%d", (int)getpid()); /* never created */
    setenv("NPUEMU_NODE", node, 1);
    unsetenv("NPUEMU_DEVICES");
    unsetenv("NPUEMU_SOC");
    unsetenv("NPUEMU_CONFIG");

    int num = 0, list[64];
    CHECK_EQ(dcmi_get_card_list(&num, list, 64), DCMI_ERR_CODE_INNER_ERR); /* before init (§6.1) */
    int logic = -1;
    CHECK_EQ(dcmi_get_device_logic_id(&logic, 0, 0), DCMI_ERR_CODE_NOT_REDAY);
    CHECK_EQ(dcmi_init(), DCMI_OK);
    CHECK_EQ(dcmi_init(), DCMI_OK); /* idempotent */

    char ver[33];
    CHECK_EQ(dcmi_get_dcmi_version(ver, sizeof ver), DCMI_OK);
    CHECK(strlen(ver) > 0 && strspn(ver, "0123456789.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-") == strlen(ver));
    CHECK_EQ(dcmi_get_dcmi_version(ver, 8), DCMI_ERR_CODE_INVALID_PARAMETER);
    CHECK_EQ(dcmi_get_dcmi_version(NULL, 33), DCMI_ERR_CODE_INVALID_PARAMETER);

    /* cards 0..7, one chip each, logic = phys = card */
    CHECK_EQ(dcmi_get_card_list(&num, list, 64), DCMI_OK);
    CHECK_EQ(num, 8);
    for (int i = 0; i < num; i++) CHECK_EQ(list[i], i);
    CHECK_EQ(dcmi_get_card_num_list(&num, list, 64), DCMI_OK);
    CHECK_EQ(num, 8);
    CHECK_EQ(dcmi_get_card_list(&num, list, 4), DCMI_ERR_CODE_INVALID_PARAMETER); /* shorter than the card count */
    CHECK_EQ(dcmi_get_card_list(&num, list, 0), DCMI_ERR_CODE_INVALID_PARAMETER);
    CHECK_EQ(dcmi_get_card_list(NULL, list, 64), DCMI_ERR_CODE_INVALID_PARAMETER);
    int dn = 0, dmax = 0, mcu = 0, cpu = 0;
    CHECK_EQ(dcmi_get_device_num_in_card(3, &dn), DCMI_OK);
    CHECK_EQ(dn, 1);
    CHECK_EQ(dcmi_get_device_num_in_card(8, &dn), DCMI_ERR_CODE_INVALID_PARAMETER);
    CHECK_EQ(dcmi_get_device_num_in_card(-1, &dn), DCMI_ERR_CODE_INVALID_PARAMETER);
    CHECK_EQ(dcmi_get_device_id_in_card(0, &dmax, &mcu, &cpu), DCMI_OK);
    CHECK(dmax == 1 && mcu == 1 && cpu == -1);
    CHECK_EQ(dcmi_get_device_logic_id(&logic, 5, 0), DCMI_OK);
    CHECK_EQ(logic, 5);
    CHECK_EQ(dcmi_get_device_logic_id(&logic, 5, 1), DCMI_ERR_CODE_NOT_SUPPORT); /* the MCU */
    CHECK_EQ(dcmi_get_device_logic_id(&logic, 5, 2), DCMI_ERR_CODE_INVALID_PARAMETER);
    CHECK_EQ(dcmi_get_device_logic_id(NULL, 5, 0), DCMI_ERR_CODE_INVALID_PARAMETER);
    int card = -1, dev = -1;
    CHECK_EQ(dcmi_get_card_id_device_id_from_logicid(&card, &dev, 6), DCMI_OK);
    CHECK(card == 6 && dev == 0);
    CHECK_EQ(dcmi_get_card_id_device_id_from_logicid(&card, &dev, 8), DCMI_ERR_CODE_DEVICE_NOT_EXIST);
    unsigned int phy = 99, back = 99;
    CHECK_EQ(dcmi_get_device_phyid_from_logicid(7, &phy), DCMI_OK);
    CHECK_EQ(dcmi_get_device_logicid_from_phyid(phy, &back), DCMI_OK);
    CHECK(phy == 7 && back == 7);
    CHECK(dcmi_get_device_phyid_from_logicid(8, &phy) != DCMI_OK);
    CHECK_EQ(dcmi_get_device_phyid_from_logicid(0, NULL), DCMI_ERR_CODE_INVALID_PARAMETER);
    enum dcmi_unit_type ut;
    CHECK_EQ(dcmi_get_device_type(0, 0, &ut), DCMI_OK);
    CHECK_EQ(ut, NPU_TYPE);
    CHECK_EQ(dcmi_get_device_type(0, 1, &ut), DCMI_OK);
    CHECK_EQ(ut, MCU_TYPE);

    /* identity */
    struct dcmi_chip_info ci;
    struct dcmi_chip_info_v2 ci2;
    CHECK_EQ(dcmi_get_device_chip_info(0, 0, &ci), DCMI_OK);
    CHECK(strcmp((char *)ci.chip_type, "Ascend") == 0 && strcmp((char *)ci.chip_name, "910B3") == 0);
    CHECK(strcmp((char *)ci.chip_ver, "V1") == 0);
    CHECK_EQ(ci.aicore_cnt, 20);
    CHECK_EQ(dcmi_get_device_chip_info_v2(7, 0, &ci2), DCMI_OK);
    CHECK(strcmp((char *)ci2.npu_name, "910B3") == 0 && ci2.aicore_cnt == 20);
    CHECK_EQ(dcmi_get_device_chip_info(0, 0, NULL), DCMI_ERR_CODE_INVALID_PARAMETER);
    struct dcmi_board_info bi;
    CHECK_EQ(dcmi_get_device_board_info(0, 0, &bi), DCMI_OK);
    CHECK_EQ(bi.board_id, 0x32);
    unsigned int mb = 0xFFFFFFFFu;
    CHECK_EQ(dcmi_get_mainboard_id(0, 0, &mb), DCMI_OK);
    CHECK(mb != 0xFFFFFFFFu);
    char prod[65];
    CHECK_EQ(dcmi_get_product_type(0, 0, prod, sizeof prod), DCMI_ERR_CODE_NOT_SUPPORT);
    struct dcmi_pcie_info_all pci;
    CHECK_EQ(dcmi_get_device_pcie_info_v2(0, 0, &pci), DCMI_OK);
    CHECK(pci.venderid == 0x19E5 && pci.deviceid == 0xD802 && pci.bdf_busid == 0xC1);
    struct dcmi_die_id d0, d1, d0again;
    CHECK_EQ(dcmi_get_device_die_v2(0, 0, VDIE, &d0), DCMI_OK);
    CHECK_EQ(dcmi_get_device_die_v2(1, 0, VDIE, &d1), DCMI_OK);
    CHECK_EQ(dcmi_get_device_die_v2(0, 0, VDIE, &d0again), DCMI_OK);
    CHECK(memcmp(&d0, &d1, sizeof d0) != 0 && memcmp(&d0, &d0again, sizeof d0) == 0); /* unique, stable */

    /* telemetry of an idle chip */
    unsigned int health = 9;
    CHECK_EQ(dcmi_get_device_health(0, 0, &health), DCMI_OK);
    CHECK_EQ(health, 0);
    int nerr = -1;
    unsigned int codes[128];
    CHECK_EQ(dcmi_get_device_errorcode_v2(0, 0, &nerr, codes, 128), DCMI_OK);
    CHECK_EQ(nerr, 0);
    struct dcmi_hbm_info hbm;
    CHECK_EQ(dcmi_get_device_hbm_info(0, 0, &hbm), DCMI_OK);
    CHECK_EQ(hbm.memory_size, 65536);
    CHECK_EQ(hbm.freq, 1600);
    CHECK(hbm.memory_usage >= 2048 && hbm.memory_usage <= 4096); /* the device OS share (§6.14) */
    CHECK(hbm.temp > 0);
    CHECK_EQ(dcmi_get_device_hbm_info(0, 1, &hbm), DCMI_ERR_CODE_NOT_SUPPORT);
    struct dcmi_get_memory_info_stru mem;
    CHECK_EQ(dcmi_get_device_memory_info_v3(0, 0, &mem), DCMI_ERR_CODE_NOT_SUPPORT); /* no DDR on 910B */
    unsigned int u = 999;
    CHECK_EQ(dcmi_get_device_utilization_rate(0, 0, DCMI_UTILIZATION_RATE_AICORE, &u), DCMI_OK);
    CHECK_EQ(u, 0);
    CHECK_EQ(dcmi_get_device_utilization_rate(0, 0, DCMI_UTILIZATION_RATE_HBM, &u), DCMI_OK);
    CHECK_EQ(u, (unsigned)((hbm.memory_usage * 100 + 32768) / 65536));
    CHECK_EQ(dcmi_get_device_utilization_rate(0, 0, DCMI_UTILIZATION_RATE_DDR, &u), DCMI_ERR_CODE_NOT_SUPPORT);
    CHECK_EQ(dcmi_get_device_utilization_rate(0, 0, DCMI_UTILIZATION_RATE_AICORE, NULL), DCMI_ERR_CODE_INVALID_PARAMETER);
    struct dcmi_proc_mem_info procs[32];
    int np = -1;
    CHECK_EQ(dcmi_get_device_resource_info(0, 0, procs, &np), DCMI_OK);
    CHECK_EQ(np, 0);
    CHECK_EQ(dcmi_get_device_resource_info(0, 0, procs, NULL), DCMI_ERR_CODE_INVALID_PARAMETER);
    int t = 0, p = 0;
    unsigned int v = 0, f = 0;
    CHECK_EQ(dcmi_get_device_temperature(0, 0, &t), DCMI_OK);
    CHECK(t > 0 && t < 100);
    CHECK_EQ(dcmi_get_device_power_info(0, 0, &p), DCMI_OK);
    CHECK(p > 0);
    CHECK_EQ(dcmi_get_device_voltage(0, 0, &v), DCMI_OK);
    CHECK(v > 0 && v < 0x7FFFFFFF);
    CHECK_EQ(dcmi_get_device_frequency(0, 0, DCMI_FREQ_AICORE_MAX, &f), DCMI_OK);
    CHECK_EQ(f, 1800);
    CHECK_EQ(dcmi_get_device_frequency(0, 0, DCMI_FREQ_HBM, &f), DCMI_OK);
    CHECK_EQ(f, 1600);
    CHECK_EQ(dcmi_get_device_frequency(0, 0, DCMI_FREQ_DDR, &f), DCMI_ERR_CODE_NOT_SUPPORT);
    enum dcmi_rdfx_detect_result nh = DCMI_RDFX_DETECT_MAX;
    CHECK_EQ(dcmi_get_device_network_health(0, 0, &nh), DCMI_OK);
    CHECK(nh == DCMI_RDFX_DETECT_OK || nh == DCMI_RDFX_DETECT_INIT);
    struct dcmi_ecc_info ecc[2];
    memset(ecc, 0xAB, sizeof ecc);
    CHECK_EQ(dcmi_get_device_ecc_info(0, 0, DCMI_DEVICE_TYPE_HBM, &ecc[0]), DCMI_OK);
    CHECK_EQ(ecc[0].enable_flag, 1);
    CHECK_EQ(ecc[0].double_bit_error_cnt, 0);
    CHECK_EQ(((unsigned char *)&ecc[1])[0], 0xAB); /* only 28 bytes written */
    CHECK_EQ(dcmi_get_device_ecc_info(0, 0, DCMI_DEVICE_TYPE_DDR, &ecc[0]), DCMI_ERR_CODE_NOT_SUPPORT);
    enum dcmi_boot_status bs = DCMI_BOOT_STATUS_FINISH;
    CHECK_EQ(dcmi_get_device_boot_status(0, 0, &bs), DCMI_OK);
    CHECK_EQ(bs, 16);

    /* vNPU resources of a whole chip: DP reads computing.aic (§6.24) */
    struct dcmi_soc_total_resource tot;
    unsigned int size = sizeof tot;
    CHECK_EQ(dcmi_get_device_info(0, 0, DCMI_MAIN_CMD_VDEV_MNG, DCMI_VMNG_SUB_CMD_GET_TOTAL_RESOURCE, &tot, &size), DCMI_OK);
    CHECK(tot.computing.aic == 20.0f && tot.vdev_num == 0);
    size = 8;
    CHECK_EQ(dcmi_get_device_info(0, 0, DCMI_MAIN_CMD_VDEV_MNG, DCMI_VMNG_SUB_CMD_GET_TOTAL_RESOURCE, &tot, &size),
             DCMI_ERR_CODE_INVALID_PARAMETER);
    struct dcmi_spod_info spod;
    size = sizeof spod;
    CHECK_EQ(dcmi_get_device_info(0, 0, DCMI_MAIN_CMD_CHIP_INF, DCMI_CHIP_INF_SUB_CMD_SPOD_INFO, &spod, &size),
             DCMI_ERR_CODE_NOT_SUPPORT);

    /* without a node (no process ran) a vNPU cannot be created yet; a bad
     * template is a bad parameter whatever the node's state */
    struct dcmi_create_vdev_res_stru req;
    struct dcmi_create_vdev_out out;
    memset(&req, 0, sizeof req);
    req.vdev_id = req.vfg_id = 0xFFFFFFFFu;
    snprintf(req.template_name, sizeof req.template_name, "vir99_9c_99g");
    CHECK_EQ(dcmi_create_vdevice(0, 0, &req, &out), DCMI_ERR_CODE_INVALID_PARAMETER);
    CHECK_EQ(dcmi_set_device_reset(0, 0, INBAND_CHANNEL), DCMI_OK); /* nothing uses the chip */
    CHECK_EQ(dcmi_set_device_reset(9, 0, INBAND_CHANNEL), DCMI_ERR_CODE_INVALID_PARAMETER);
    printf("dcmi_basic: ok (version %s)\n", ver);
    return 0;
}
