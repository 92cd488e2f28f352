/* A program may link the runtime as -lacl_rt instead of the legacy umbrella
 * -lascendcl (acl-types.md, library names): both names export the whole API.
 * This one initialises, finds a device, binds to it and lets it go.
 *
 * link: -lacl_rt
 */
#include "check.h"

int main(void) {
    CHECK_OK(aclInit(NULL));
    uint32_t n = 0;
    CHECK_OK(aclrtGetDeviceCount(&n));
    CHECK(n >= 1);
    CHECK_OK(aclrtSetDevice(0));
    int32_t dev = -1;
    CHECK_OK(aclrtGetDevice(&dev));
    CHECK_EQ(dev, 0);
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
