/* init_finalize_streams: streams that aclFinalize and aclrtResetDevice
 * release implicitly get the DESTROY_PRE state callback, default streams
 * included, like explicitly destroyed ones. */
#include "rt_util.h"

static int created, destroyed;

static void on_stream(aclrtStream s, aclrtStreamState state, void *args)
{
    (void)s;
    (void)args;
    if (state == ACL_RT_STREAM_STATE_CREATE_POST) created++;
    if (state == ACL_RT_STREAM_STATE_DESTROY_PRE) destroyed++;
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    /* doc: semantics.md §4 — fires for explicit and default streams. */
    CHECK_OK(aclrtRegStreamStateCallback("init_finalize_streams", on_stream, NULL));

    /* Reset: the primary context's default stream and its explicit stream. */
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_EQ(created, 2);
    CHECK_OK(aclrtResetDevice(0));
    CHECK_EQ(destroyed, 2);

    /* Finalize: every stream still alive, of every context. */
    created = destroyed = 0;
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s1 = NULL, s2 = NULL;
    CHECK_OK(aclrtCreateStream(&s1));
    aclrtContext ctx = NULL;
    CHECK_OK(aclrtCreateContext(&ctx, 0)); /* its own default stream */
    CHECK_OK(aclrtCreateStream(&s2));
    CHECK_EQ(created, 4);
    CHECK_EQ(destroyed, 0);
    CHECK_OK(aclFinalize());
    CHECK_EQ(destroyed, 4);
    return 0;
}
