/* hal_queue_basic: the driver's buffer queues (halQueue*, prototypes and
 * QueueAttr from public call sites: cmd/specgen/hal_public.go): a device's
 * queues are initialised once, a queue holds at most its depth of mbufs in
 * FIFO order, full and empty are DRV_ERROR_QUEUE_FULL / _EMPTY, Peek
 * reports the front mbuf's data length, a queue with overWriteFlag drops
 * its oldest mbuf when full, Destroy frees what it still holds; the queue
 * family's own codes for an uninitialised device, an unknown queue and bad
 * arguments.
 *
 * link: -lascend_hal
 * env: NPUEMU_DEVICES=2
 * needs: emulator devices=2
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "driver/ascend_hal.h"

#define DRV_OK(call) CHECK_EQ((int)(call), (int)DRV_ERROR_NONE)
#define DRV_ERR(call, code) CHECK_EQ((int)(call), (int)(code))

static QueueAttr attr(const char *name, unsigned int depth, bool overWrite) {
    QueueAttr a;
    memset(&a, 0, sizeof a);
    strncpy(a.name, name, sizeof a.name - 1);
    a.depth = depth;
    a.workMode = 1;
    a.overWriteFlag = overWrite;
    a.deploy_type = LOCAL_QUEUE_DEPLOY;
    return a;
}

int main(void)
{
    CHECK(sizeof(QueueAttr) >= QUEUE_MAX_STR_LEN + 5 * sizeof(unsigned int));
    QueueAttr qa = attr("input", 2, false);
    unsigned int qid = 99;
    DRV_ERR(halQueueCreate(0, &qa, &qid), DRV_ERROR_QUEUE_NOT_INIT);
    DRV_OK(halQueueInit(0));
    DRV_ERR(halQueueInit(0), DRV_ERROR_QUEUE_REPEEATED_INIT); /* callers accept it */
    DRV_ERR(halQueueInit(7), DRV_ERROR_INVALID_DEVICE);
    DRV_ERR(halQueueCreate(0, NULL, &qid), DRV_ERROR_QUEUE_NULL_POINTER);
    DRV_ERR(halQueueCreate(0, &qa, NULL), DRV_ERROR_QUEUE_NULL_POINTER);
    QueueAttr shallow = attr("shallow", 1, false);
    DRV_ERR(halQueueCreate(0, &shallow, &qid), DRV_ERROR_QUEUE_PARA_ERROR);
    DRV_OK(halQueueCreate(0, &qa, &qid));
    unsigned int again = 0;
    DRV_ERR(halQueueCreate(0, &qa, &again), DRV_ERROR_QUEUE_PARA_ERROR); /* the name is taken */

    Mbuf *m[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++) {
        DRV_OK(halMbufAlloc(32, &m[i]));
        DRV_OK(halMbufSetDataLen(m[i], (uint64_t)(10 + i)));
    }
    void *out = NULL;
    uint64_t len = 0;
    DRV_ERR(halQueueDeQueue(0, qid, &out), DRV_ERROR_QUEUE_EMPTY);
    DRV_ERR(halQueuePeek(0, qid, &len, 0), DRV_ERROR_QUEUE_EMPTY);
    DRV_ERR(halQueuePeek(0, qid, &len, 10), DRV_ERROR_QUEUE_EMPTY); /* nothing came in 10 ms */
    DRV_OK(halQueueEnQueue(0, qid, m[0]));
    DRV_OK(halQueueEnQueue(0, qid, m[1]));
    DRV_ERR(halQueueEnQueue(0, qid, m[2]), DRV_ERROR_QUEUE_FULL);
    DRV_OK(halQueuePeek(0, qid, &len, 0));
    CHECK_EQ(len, 10);
    DRV_OK(halQueueDeQueue(0, qid, &out));
    CHECK(out == (void *)m[0]); /* first in, first out */
    DRV_OK(halQueueEnQueue(0, qid, m[2]));
    DRV_OK(halQueueDeQueue(0, qid, &out));
    CHECK(out == (void *)m[1]);
    DRV_OK(halQueueDeQueue(0, qid, &out));
    CHECK(out == (void *)m[2]);
    DRV_ERR(halQueueDeQueue(0, qid, NULL), DRV_ERROR_QUEUE_NULL_POINTER);

    /* Queues are per device; unknown ids. */
    DRV_ERR(halQueueEnQueue(1, qid, m[0]), DRV_ERROR_QUEUE_NOT_INIT);
    DRV_ERR(halQueueEnQueue(0, qid + 1, m[0]), DRV_ERROR_QUEUE_NOT_CREATED);
    DRV_ERR(halQueueEnQueue(0, qid, NULL), DRV_ERROR_QUEUE_NULL_POINTER);

    /* Overwrite: the oldest goes (and is freed); destroy frees the rest. */
    QueueAttr ring = attr("", 2, true);
    unsigned int rid = 0;
    DRV_OK(halQueueCreate(0, &ring, &rid));
    CHECK(rid != qid);
    for (int i = 0; i < 3; i++) DRV_OK(halQueueEnQueue(0, rid, m[i]));
    DRV_ERR(halMbufGetDataLen(m[0], &len), DRV_ERROR_INVALID_VALUE); /* dropped */
    DRV_OK(halQueueDeQueue(0, rid, &out));
    CHECK(out == (void *)m[1]);
    DRV_OK(halQueueDestroy(0, rid));
    DRV_ERR(halMbufFree(m[2]), DRV_ERROR_INVALID_VALUE); /* freed with the queue */
    DRV_ERR(halQueueDestroy(0, rid), DRV_ERROR_QUEUE_NOT_CREATED);
    DRV_OK(halMbufFree(m[1]));
    DRV_OK(halQueueDestroy(0, qid));
    return 0;
}
