/* stream_state_callback: stream and device state callbacks. Stream callbacks see
 * CREATE_POST after a stream is created and DESTROY_PRE before it is
 * destroyed, default streams included; device callbacks see SET_PRE/SET_POST
 * around aclrtSetDevice and RESET_PRE/RESET_POST around aclrtResetDevice.
 * Callbacks may call the runtime. Names are unique; NULL unregisters. */
#include "rt_util.h"

#define MAXEV 64

static int devStates[MAXEV], ndev;
static int32_t devIds[MAXEV];
static int streamStates[MAXEV], nstream;
static aclrtStream streamSeen[MAXEV];
static aclError getIdErr = ACL_SUCCESS;
static int token;

static void onDevice(int32_t deviceId, aclrtDeviceState state, void *args)
{
    if (args != &token || ndev >= MAXEV) return;
    devIds[ndev] = deviceId;
    devStates[ndev++] = (int)state;
}

static void onStream(aclrtStream stm, aclrtStreamState state, void *args)
{
    if (args != &token || nstream >= MAXEV) return;
    streamSeen[nstream] = stm;
    streamStates[nstream++] = (int)state;
    if (stm != NULL) {
        /* The stream is alive in both states, and the runtime is usable. */
        int32_t id = -1;
        aclError e = aclrtStreamGetId(stm, &id);
        if (e != ACL_SUCCESS) getIdErr = e;
    }
}

static int count(const int *states, int n, int state)
{
    int c = 0;
    for (int i = 0; i < n; i++) c += states[i] == state;
    return c;
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtRegDeviceStateCallback("conf-dev", onDevice, &token));
    CHECK_OK(aclrtRegStreamStateCallback("conf-stream", onStream, &token));
    CHECK_FAILS(aclrtRegDeviceStateCallback("conf-dev", onDevice, &token));
    CHECK_FAILS(aclrtRegStreamStateCallback("conf-stream", onStream, &token));

    CHECK_OK(aclrtSetDevice(0));
    CHECK(ndev >= 2);
    CHECK_EQ(devStates[0], ACL_RT_DEVICE_STATE_SET_PRE);
    CHECK_EQ(devStates[ndev - 1], ACL_RT_DEVICE_STATE_SET_POST);
    CHECK_EQ(devIds[0], 0);
    CHECK_EQ(devIds[ndev - 1], 0);
    /* The default stream's creation was reported. */
    int defaults = count(streamStates, nstream, ACL_RT_STREAM_STATE_CREATE_POST);
    CHECK(defaults >= 1);

    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_EQ(streamStates[nstream - 1], ACL_RT_STREAM_STATE_CREATE_POST);
    CHECK(streamSeen[nstream - 1] == s);
    int before = nstream;
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_EQ(nstream, before + 1);
    CHECK_EQ(streamStates[nstream - 1], ACL_RT_STREAM_STATE_DESTROY_PRE);
    CHECK(streamSeen[nstream - 1] == s);
    CHECK_EQ(getIdErr, ACL_SUCCESS);

    /* Resetting the device destroys its default stream(s). */
    int d0 = ndev;
    int destroys = count(streamStates, nstream, ACL_RT_STREAM_STATE_DESTROY_PRE);
    CHECK_OK(aclrtResetDevice(0));
    CHECK(ndev >= d0 + 2);
    CHECK_EQ(devStates[d0], ACL_RT_DEVICE_STATE_RESET_PRE);
    CHECK_EQ(devStates[ndev - 1], ACL_RT_DEVICE_STATE_RESET_POST);
    CHECK(count(streamStates, nstream, ACL_RT_STREAM_STATE_DESTROY_PRE) >= destroys + 1);

    /* Unregistered callbacks are not called any more. */
    CHECK_OK(aclrtRegDeviceStateCallback("conf-dev", NULL, NULL));
    CHECK_OK(aclrtRegStreamStateCallback("conf-stream", NULL, NULL));
    int nd = ndev, ns = nstream;
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_EQ(ndev, nd);
    CHECK_EQ(nstream, ns);

    CHECK_OK(aclFinalize());
    return 0;
}
