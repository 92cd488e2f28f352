/* label_basic: label and label-list creation, limits and bad input, and
 * label tasks outside a model run instance. */
#include "rt_util.h"

#define LIMIT 65535

static aclrtLabel labels[LIMIT];

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));

    CHECK_ERR(aclrtCreateLabel(NULL), ACL_ERROR_INVALID_PARAM);
    aclrtLabel l = NULL;
    CHECK_OK(aclrtCreateLabel(&l));

    /* doc: semantics.md §7 — a list holds 1..65535 labels. */
    aclrtLabelList list = NULL;
    CHECK_ERR(aclrtCreateLabelList(NULL, 1, &list), ACL_ERROR_INVALID_PARAM);
    CHECK_FAILS(aclrtCreateLabelList(&l, 0, &list));
    CHECK_FAILS(aclrtCreateLabelList(&l, LIMIT + 1, &list));
    CHECK_FAILS(aclrtCreateLabelList(&l, 1, NULL));
    CHECK_OK(aclrtCreateLabelList(&l, 1, &list));

    /* doc: semantics.md §7 — aclrtSetLabel and aclrtSwitchLabelByIndex act
     * on streams bound to a model run instance only (no code given). */
    CHECK_FAILS(aclrtSetLabel(l, s));
    CHECK_FAILS(aclrtSwitchLabelByIndex(NULL, 1, list, s));
    /* doc: semantics.md §4 — so do aclrtActiveStream / aclrtSwitchStream. */
    aclrtStream t = NULL;
    CHECK_OK(aclrtCreateStream(&t));
    CHECK_FAILS(aclrtActiveStream(t, s));

    CHECK_OK(aclrtDestroyLabelList(list));
    CHECK_OK(aclrtDestroyLabel(l));

    /* doc: semantics.md §7 — at most 65535 labels per process. */
    int made = 0;
    while (made < LIMIT) {
        CHECK_OK(aclrtCreateLabel(&labels[made]));
        made++;
    }
    aclrtLabel extra = NULL;
    CHECK_FAILS(aclrtCreateLabel(&extra));
    CHECK_OK(aclrtCreateLabelList(labels, LIMIT, &list));
    CHECK_OK(aclrtDestroyLabelList(list));
    CHECK_OK(aclrtDestroyLabel(labels[0]));
    CHECK_OK(aclrtCreateLabel(&labels[0]));
    for (int i = 0; i < made; i++) CHECK_OK(aclrtDestroyLabel(labels[i]));

    CHECK_OK(aclrtDestroyStream(t));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
