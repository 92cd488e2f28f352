/* aclrtGetSocName names the SoC (semantics.md §2: a runtime-owned string
 * such as "Ascend910B1", NULL only on failure). It takes no device and no
 * context, so it answers before aclInit (§1) as well as after, and the
 * answer does not change. Every SoC name in the documentation's product
 * table starts with "Ascend". */
#include "check.h"

int main(void) {
    const char *before = aclrtGetSocName();
    CHECK(before != NULL);
    CHECK(before[0] != '\0');
    char saved[128];
    CHECK(strlen(before) < sizeof saved);
    strcpy(saved, before);
    CHECK(strncmp(saved, "Ascend", 6) == 0);

    CHECK_OK(aclInit(NULL));
    const char *after = aclrtGetSocName();
    CHECK(after != NULL);
    if (strcmp(after, saved) != 0) FAIL("aclrtGetSocName: %s before aclInit, %s after", saved, after);
    CHECK_OK(aclFinalize());
    printf("SoC %s\n", saved);
    return 0;
}
