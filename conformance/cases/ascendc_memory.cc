/* ascendc_memory: TPipe, TQue (FIFO order, depth), TQueBind, TBuf
 * (Get, GetWithOffset), TBufPool, LocalMemAllocator, static LocalTensor
 * and TPipe::Reset lay out and hand out the Unified Buffer as documented.
 *
 * needs: emulator
 */
#include "ascendc_build.h"

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = asc_load(__FILE__, "memory.cpp");
    int32_t x[64], o[64];
    for (int i = 0; i < 64; i++) x[i] = 1000 + i;
    void *dx = asc_dev(256), *dout = asc_dev(256);
    CHECK_OK(aclrtMemcpy(dx, 256, x, 256, ACL_MEMCPY_HOST_TO_DEVICE));
    void *args[2] = {dx, dout};
    CHECK_OK(asc_run(asc_fn(bin, "memory_objects"), 1, s, args, sizeof args));
    CHECK_OK(aclrtMemcpy(o, sizeof o, dout, sizeof o, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(o[0], 10);
    CHECK_EQ(o[1], 11);
    CHECK_EQ(o[2], 12);
    CHECK_EQ(o[3], 13);
    CHECK_EQ(o[4], 0);
    CHECK_EQ(o[5], 1);
    for (int i = 0; i < 8; i++) CHECK_EQ(o[8 + i], x[i]);
    CHECK_EQ(o[16], 1024);
    CHECK_EQ(o[17], 1);
    CHECK_EQ(o[18], 42);
    CHECK_EQ(o[19], 4096);
    CHECK_EQ(o[20], 77);
    CHECK_EQ(o[21], 0);
    CHECK_EQ(o[22], 82);
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("ok\n");
    return 0;
}
