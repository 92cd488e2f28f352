/* dcmi_dsmi: the legacy DSMI subset (libdrvdsmi_host.so, hal-api.md §5)
 * answers what DCMI answers for the same node: device count and ids, chip
 * identity, HBM size and use (KB there, MB in DCMI), health; and the
 * driver's codes for bad input (DRV_ERROR_PARA_ERROR, unknown device) and
 * for what a 910B lacks (DRV_ERROR_NOT_SUPPORT).
 *
 * needs: emulator
 * link: -ldrvdsmi_host -ldcmi
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dcmi_interface_api.h"
#include "driver/dsmi_common_interface.h"

int main(void) {
    char node[64];
    snprintf(node, sizeof node, "/tmp/npuemu-dcmi-dsmi-%d", (int)getpid()); /* never created */
    setenv("NPUEMU_NODE", node, 1);
    setenv("NPUEMU_DEVICES", "4", 1);
    unsetenv("NPUEMU_SOC");
    unsetenv("NPUEMU_CONFIG");
    CHECK_EQ(dcmi_init(), DCMI_OK);

    int count = 0, cards = 0, list[64];
    CHECK_EQ(dsmi_get_device_count(&count), DRV_ERROR_NONE);
    CHECK_EQ(dcmi_get_card_list(&cards, list, 64), DCMI_OK);
    CHECK_EQ(count, 4);
    CHECK_EQ(count, cards);
    int ids[64];
    CHECK_EQ(dsmi_list_device(ids, 64), DRV_ERROR_NONE);
    for (int i = 0; i < count; i++) CHECK_EQ(ids[i], list[i]);
    CHECK_EQ(dsmi_list_device(ids, 0), DRV_ERROR_PARA_ERROR);
    CHECK_EQ(dsmi_list_device(NULL, 64), DRV_ERROR_PARA_ERROR);
    CHECK_EQ(dsmi_get_device_count(NULL), DRV_ERROR_PARA_ERROR);
    unsigned int phy = 99;
    CHECK_EQ(dsmi_get_phyid_from_logicid(3, &phy), DRV_ERROR_NONE);
    CHECK_EQ(phy, 3);
    CHECK(dsmi_get_phyid_from_logicid(4, &phy) != DRV_ERROR_NONE);

    struct dsmi_chip_info_stru chip;
    struct dcmi_chip_info dchip;
    CHECK_EQ(dsmi_get_chip_info(2, &chip), DRV_ERROR_NONE);
    CHECK_EQ(dcmi_get_device_chip_info(2, 0, &dchip), DCMI_OK);
    CHECK(strcmp((char *)chip.chip_name, (char *)dchip.chip_name) == 0);
    CHECK(strcmp((char *)chip.chip_type, "Ascend") == 0);
    CHECK_EQ(dsmi_get_chip_info(4, &chip), DRV_ERROR_INVALID_DEVICE);
    CHECK_EQ(dsmi_get_chip_info(-1, &chip), DRV_ERROR_INVALID_DEVICE);

    struct dsmi_hbm_info_stru hbm;
    struct dcmi_hbm_info dhbm;
    CHECK_EQ(dsmi_get_hbm_info(0, &hbm), DRV_ERROR_NONE);
    CHECK_EQ(dcmi_get_device_hbm_info(0, 0, &dhbm), DCMI_OK);
    CHECK_EQ(hbm.memory_size / 1024, dhbm.memory_size);
    CHECK_EQ(hbm.memory_usage / 1024, dhbm.memory_usage);
    CHECK_EQ(hbm.freq, dhbm.freq);
    struct dsmi_memory_info_stru mem;
    CHECK_EQ(dsmi_get_memory_info(0, &mem), DRV_ERROR_NONE);
    CHECK_EQ(mem.memory_size, hbm.memory_size);
    struct dsmi_get_memory_info_stru mem2;
    CHECK_EQ(dsmi_get_memory_info_v2(0, &mem2), DRV_ERROR_NOT_SUPPORT); /* no DDR on 910B */

    unsigned int h = 9, dh = 8, rate = 999;
    CHECK_EQ(dsmi_get_device_health(1, &h), DRV_ERROR_NONE);
    CHECK_EQ(dcmi_get_device_health(1, 0, &dh), DCMI_OK);
    CHECK_EQ(h, dh);
    CHECK_EQ(dsmi_get_device_utilization_rate(0, UTLRATE_TYPE_AICORE, &rate), DRV_ERROR_NONE);
    CHECK(rate <= 100);
    CHECK_EQ(dsmi_get_device_utilization_rate(0, UTLRATE_TYPE_DDR, &rate), DRV_ERROR_NOT_SUPPORT);
    CHECK_EQ(dsmi_get_device_utilization_rate(0, 99, &rate), DRV_ERROR_PARA_ERROR);

    /* dsmi_get_device_info: the MEMORY commands */
    struct dsmi_memory_info mi;
    unsigned int size = sizeof mi;
    CHECK_EQ(dsmi_get_device_info(0, DSMI_MAIN_CMD_MEMORY, DSMI_SUB_CMD_MEMORY_CAPACITY, &mi, &size), DRV_ERROR_NONE);
    CHECK_EQ(mi.total_size, dhbm.memory_size);
    CHECK_EQ(mi.used_size, dhbm.memory_usage);
    size = 4;
    CHECK_EQ(dsmi_get_device_info(0, DSMI_MAIN_CMD_MEMORY, DSMI_SUB_CMD_MEMORY_CAPACITY, &mi, &size), DRV_ERROR_PARA_ERROR);
    unsigned int buf[64];
    size = sizeof buf;
    CHECK_EQ(dsmi_get_device_info(0, DSMI_MAIN_CMD_QOS, 0, buf, &size), DRV_ERROR_NOT_SUPPORT);

    char ver[64];
    unsigned int len = 0;
    char dver[33];
    CHECK_EQ(dsmi_get_version(0, ver, sizeof ver, &len), DRV_ERROR_NONE);
    CHECK_EQ(dcmi_get_dcmi_version(dver, sizeof dver), DCMI_OK);
    CHECK(strcmp(ver, dver) == 0 && len == strlen(ver));
    printf("dcmi_dsmi: ok\n");
    return 0;
}
