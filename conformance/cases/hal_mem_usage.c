/* hal_mem_usage: halGetMemUsageInfo (struct mem_module_usage, hal-api.md
 * §3) reports device memory per module: a halMemAlloc under a module id
 * (bits 56-63 of the flag word) appears under that module with its size
 * in cur_mem_size and stays in mem_peak_size after halMemFree; the records
 * are the ones aclrtGetMemUsageInfo gives (one device, two APIs); at most
 * in_num records are written; bad arguments get drvError_t codes.
 *
 * link: -lascendcl -lascend_hal
 * env: NPUEMU_SOC=Ascend910B3 NPUEMU_DEVICES=2
 * needs: devices=2
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "driver/ascend_hal.h"

#define CHECK_DRV(call, code)                                            \
    do {                                                                 \
        drvError_t check_d_ = (call);                                    \
        if (check_d_ != (code))                                          \
            FAIL("%s: got %d, want %s (%d)", #call, (int)check_d_, #code, (int)(code)); \
    } while (0)

#define MiB ((uint64_t)1 << 20)
#define MAXREC 64

static struct mem_module_usage hal_recs[MAXREC];
static aclrtMemUsageInfo acl_recs[MAXREC];

/* usage returns the HAL's records of device dev and checks that ACL's are
 * the same. */
static size_t usage(uint32_t dev)
{
    size_t n = 0, m = 0;
    memset(hal_recs, 0xA5, sizeof hal_recs);
    CHECK_DRV(halGetMemUsageInfo(dev, hal_recs, MAXREC, &n), DRV_ERROR_NONE);
    CHECK(n < MAXREC);
    CHECK_OK(aclrtGetMemUsageInfo((int32_t)dev, acl_recs, MAXREC, &m));
    CHECK_EQ(n, m);
    for (size_t i = 0; i < n; i++) {
        CHECK(memchr(hal_recs[i].name, 0, sizeof hal_recs[i].name) != NULL);
        CHECK(strcmp(hal_recs[i].name, acl_recs[i].name) == 0);
        CHECK_EQ(hal_recs[i].cur_mem_size, acl_recs[i].curMemSize);
        CHECK_EQ(hal_recs[i].mem_peak_size, acl_recs[i].memPeakSize);
        CHECK(hal_recs[i].cur_mem_size <= hal_recs[i].mem_peak_size);
    }
    return n;
}

/* find returns the record named name among the first n, or NULL. */
static const struct mem_module_usage *find(size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(hal_recs[i].name, name) == 0)
            return &hal_recs[i];
    return NULL;
}

static uint64_t total(size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += hal_recs[i].cur_mem_size;
    return s;
}

int main(void)
{
    CHECK_EQ((int)sizeof(struct mem_module_usage), 112);
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(1));

    size_t n0 = usage(1);
    uint64_t before = total(n0);

    /* 3 MiB of huge pages under HCCL_HAL_MODULE_ID (3). */
    void *p = NULL;
    uint64_t module = (uint64_t)HCCL_HAL_MODULE_ID << MEM_MODULE_ID_BIT;
    CHECK_DRV(halMemAlloc(&p, 3 * MiB, MEM_DEV | MEM_TYPE_HBM | MEM_PAGE_HUGE | 1 | module), DRV_ERROR_NONE);
    size_t n1 = usage(1);
    uint64_t during = total(n1);
    CHECK(during >= before + 3 * MiB);
    /* Some record holds the new memory. */
    const struct mem_module_usage *r = NULL;
    for (size_t i = 0; i < n1; i++)
        if (hal_recs[i].cur_mem_size >= 3 * MiB && find(n0, hal_recs[i].name) == NULL)
            r = &hal_recs[i];
    CHECK(r != NULL);
    char name[32];
    memcpy(name, r->name, sizeof name);
    uint64_t held = r->cur_mem_size;
    CHECK_EQ(held, during - before);

    /* in_num bounds what is written. */
    size_t one = 99;
    CHECK_DRV(halGetMemUsageInfo(1, hal_recs, 1, &one), DRV_ERROR_NONE);
    CHECK_EQ(one, 1);

    CHECK_DRV(halMemFree(p), DRV_ERROR_NONE);
    size_t n2 = usage(1);
    CHECK_EQ(total(n2), before);
    r = find(n2, name);
    CHECK(r != NULL);
    CHECK_EQ(r->cur_mem_size, 0);
    CHECK_EQ(r->mem_peak_size, held);

    /* Device 0 was never used by this program. */
    size_t none = 99;
    CHECK_DRV(halGetMemUsageInfo(0, hal_recs, MAXREC, &none), DRV_ERROR_NONE);
    CHECK_EQ(none, 0);

    CHECK_DRV(halGetMemUsageInfo(1, NULL, MAXREC, &none), DRV_ERROR_INVALID_VALUE);
    CHECK_DRV(halGetMemUsageInfo(1, hal_recs, MAXREC, NULL), DRV_ERROR_INVALID_VALUE);
    CHECK_DRV(halGetMemUsageInfo(1, hal_recs, 0, &none), DRV_ERROR_INVALID_VALUE);
    CHECK_DRV(halGetMemUsageInfo(9, hal_recs, MAXREC, &none), DRV_ERROR_INVALID_DEVICE);

    CHECK_OK(aclrtResetDevice(1));
    CHECK_OK(aclFinalize());
    return 0;
}
