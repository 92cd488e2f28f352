/* dcmi_layout: the structures of dcmi_interface_api.h have the documented
 * sizes and offsets (dcmi-api.md §5, x86-64 LP64) and the documented
 * constant values (dcmi-constants.tsv). Compiling is the test. (Emulator
 * only: a vendor install keeps dcmi_interface_api.h beside the driver,
 * not in the toolkit's include directory.)
 *
 * needs: emulator
 * link: -ldcmi
 */
#include <stddef.h>
#include <stdio.h>

#include "dcmi_interface_api.h"

#define SIZE(t, n) _Static_assert(sizeof(struct t) == (n), #t " size")
#define OFF(t, f, n) _Static_assert(offsetof(struct t, f) == (n), #t "." #f " offset")

SIZE(dcmi_chip_info, 100);
SIZE(dcmi_chip_info_v2, 132);
OFF(dcmi_chip_info_v2, aicore_cnt, 96);
OFF(dcmi_chip_info_v2, npu_name, 100);
SIZE(dcmi_board_info, 16);
SIZE(dcmi_pcie_info_all, 64);
OFF(dcmi_pcie_info_all, bdf_busid, 20);
SIZE(dcmi_die_id, 20);
SIZE(dcmi_hbm_info, 32);
OFF(dcmi_hbm_info, memory_usage, 16);
OFF(dcmi_hbm_info, temp, 24);
OFF(dcmi_hbm_info, bandwith_util_rate, 28);
SIZE(dcmi_get_memory_info_stru, 112);
OFF(dcmi_get_memory_info_stru, hugepagesize, 24);
OFF(dcmi_get_memory_info_stru, utiliza, 48);
SIZE(dcmi_memory_info_stru, 16);
SIZE(dcmi_ecc_info, 28);
SIZE(dcmi_multi_utilization_info, 48);
SIZE(dcmi_proc_mem_info, 16);
OFF(dcmi_proc_mem_info, proc_mem_usage, 8);
SIZE(dcmi_ip_addr, 20);
OFF(dcmi_ip_addr, ip_type, 16);
SIZE(dcmi_event_filter, 48);
OFF(dcmi_event_filter, severity, 12);
OFF(dcmi_event_filter, resv, 14);
SIZE(dcmi_dms_fault_event, 352);
OFF(dcmi_dms_fault_event, event_serial_num, 12);
OFF(dcmi_dms_fault_event, alarm_raised_time, 24);
OFF(dcmi_dms_fault_event, event_name, 32);
OFF(dcmi_dms_fault_event, additional_info, 288);
OFF(dcmi_dms_fault_event, resv, 320);
SIZE(dcmi_event, 360);
OFF(dcmi_event, event_t, 8);
SIZE(dcmi_create_vdev_res_stru, 104);
OFF(dcmi_create_vdev_res_stru, template_name, 8);
SIZE(dcmi_create_vdev_out, 52);
SIZE(dcmi_base_resource, 64);
OFF(dcmi_base_resource, vip_mode, 28);
SIZE(dcmi_computing_resource, 96);
OFF(dcmi_computing_resource, memory_size, 24);
OFF(dcmi_computing_resource, device_aicpu, 54);
OFF(dcmi_computing_resource, vdev_aicore_utilization, 60);
OFF(dcmi_computing_resource, vdev_memory_total, 64);
OFF(dcmi_computing_resource, reserved, 80);
SIZE(dcmi_media_resource, 56);
SIZE(dcmi_vdev_query_info, 256);
OFF(dcmi_vdev_query_info, base, 40);
OFF(dcmi_vdev_query_info, computing, 104);
OFF(dcmi_vdev_query_info, media, 200);
SIZE(dcmi_vdev_query_stru, 264);
OFF(dcmi_vdev_query_stru, query_info, 8);
SIZE(dcmi_soc_total_resource, 360);
OFF(dcmi_soc_total_resource, vfg_num, 132);
OFF(dcmi_soc_total_resource, base, 144);
OFF(dcmi_soc_total_resource, computing, 208);
OFF(dcmi_soc_total_resource, media, 304);
SIZE(dcmi_soc_free_resource, 224);
OFF(dcmi_soc_free_resource, computing, 72);
SIZE(dcmi_spod_info, 48);
SIZE(dcmi_pcie_link_bandwidth_info, 88);
SIZE(dcmi_hccs_statistic_info, 512);
SIZE(dcmi_hccs_statistic_info_u64, 1024);
SIZE(dcmi_hccs_bandwidth_info, 280);
OFF(dcmi_hccs_bandwidth_info, total_txbw, 8);
SIZE(dcmi_sio_crc_err_statistic_info, 12);
SIZE(dcmi_elabel_info, 1280);

_Static_assert(DCMI_ERR_CODE_INVALID_PARAMETER == -8001, "invalid parameter");
_Static_assert(DCMI_ERR_CODE_NOT_REDAY == -8012, "not ready");
_Static_assert(DCMI_ERR_CODE_RESOURCE_OCCUPIED == -8020, "occupied");
_Static_assert(DCMI_ERR_CODE_CONFIG_INFO_NOT_EXIST == -8023, "config");
_Static_assert(DCMI_ERR_CODE_NOT_SUPPORT == -8255, "not support");
_Static_assert(DCMI_MAIN_CMD_VDEV_MNG == 52 && DCMI_MAIN_CMD_DEVICE_SHARE == 0x8001, "main cmd");
_Static_assert(DCMI_FREQ_AICORE_CURRENT_ == 7 && DCMI_FREQ_AICORE_MAX == 9, "freq");
_Static_assert(sizeof(enum dcmi_main_cmd) == 4 && sizeof(enum dcmi_die_type) == 4, "enums are int");

int main(void) {
    /* the library links and its entry point is callable */
    return dcmi_init() == DCMI_OK ? 0 : 1;
}
