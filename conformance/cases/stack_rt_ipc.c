/* stack_rt_ipc: the runtime's IPC memory calls, called directly:
 * rtsIpcMemGetExportKey, rtsIpcMemSetImportPid, rtsIpcMemImportByKey,
 * rtsIpcMemClose: the import sees the exporter's bytes, and the
 * ACL_ERROR_RT_* codes for bad input.
 *
 * link: -lruntime -lascendcl
 * needs: emulator
 * env: NPUEMU_SOC=Ascend910B3
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"

int main(void) {
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    void *d = NULL;
    CHECK_RT(rtMalloc(&d, 2 * 1024 * 1024, RT_MEMORY_DEFAULT, 33), ACL_RT_SUCCESS);
    unsigned char in[128], out[128];
    for (int i = 0; i < 128; i++) in[i] = (unsigned char)(i * 3 + 7);
    CHECK_RT(rtMemcpy(d, sizeof in, in, sizeof in, RT_MEMCPY_HOST_TO_DEVICE), ACL_RT_SUCCESS);

    char key[65];
    memset(key, 0, sizeof key);
    CHECK_RT(rtsIpcMemGetExportKey(NULL, 2 * 1024 * 1024, key, sizeof key, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsIpcMemGetExportKey(d, 2 * 1024 * 1024, NULL, sizeof key, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsIpcMemGetExportKey(d, 2 * 1024 * 1024, key, sizeof key, 7), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsIpcMemGetExportKey(d, 0, key, sizeof key, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsIpcMemGetExportKey(d, 2 * 1024 * 1024, key, sizeof key, 0), ACL_RT_SUCCESS);
    CHECK(key[0] != 0);

    int32_t pid[1] = {(int32_t)getpid()};
    CHECK_RT(rtsIpcMemSetImportPid(NULL, pid, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsIpcMemSetImportPid(key, NULL, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsIpcMemSetImportPid(key, pid, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsIpcMemSetImportPid(key, pid, 1), ACL_RT_SUCCESS);

    void *p = NULL;
    CHECK_RT(rtsIpcMemImportByKey(NULL, key, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsIpcMemImportByKey(&p, NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsIpcMemImportByKey(&p, key, 9), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(rtsIpcMemImportByKey(&p, "no-such-key", 0) != ACL_RT_SUCCESS);
    CHECK_RT(rtsIpcMemImportByKey(&p, key, 0), ACL_RT_SUCCESS);
    CHECK(p != NULL);
    memset(out, 0, sizeof out);
    CHECK_RT(rtMemcpy(out, sizeof out, p, sizeof out, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK(memcmp(in, out, sizeof in) == 0);

    CHECK_RT(rtsIpcMemClose(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsIpcMemClose(key), ACL_RT_SUCCESS); /* the import */
    CHECK_RT(rtsIpcMemClose(key), ACL_RT_SUCCESS); /* the export */
    CHECK(rtsIpcMemClose(key) != ACL_RT_SUCCESS);

    CHECK_RT(rtFree(d), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    return 0;
}
