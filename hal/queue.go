package hal

import (
	"strings"
	"sync"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// The driver's buffer queues (halQueueInit, halQueueCreate,
// halQueueDestroy, halQueueEnQueue, halQueueDeQueue, halQueuePeek): FIFO
// queues of mbufs (hal/mbuf.go) per device, the family under the
// runtime's rtMemQueue* calls. The prototypes and QueueAttr are not in
// hal-api.md; cmd/specgen/hal_public.go records where they come from.
// Decisions (docs/hal.md, "Buffers and queues"):
//   - halQueueInit(dev) prepares a device's queues once; a second call is
//     DRV_ERROR_QUEUE_REPEEATED_INIT (callers accept it); the other calls on
//     a device not initialised are DRV_ERROR_QUEUE_NOT_INIT;
//   - queue ids are per device, the lowest free one of 0..MAX_QUEUE_NUM-1;
//     more queues are DRV_ERROR_QUEUE_OUT_OF_SIZE; an id not created is
//     DRV_ERROR_QUEUE_NOT_CREATED;
//   - depth is at least 2 (the runtime's RT_MQ_DEPTH_MIN) and at most
//     MaxQueueDepth; the name must end within QUEUE_MAX_STR_LEN; a name
//     already used on the device is DRV_ERROR_QUEUE_PARA_ERROR as well;
//     workMode, flowCtrl*, deploy_type and queue_entity_type are accepted
//     and not modelled (npuemu has one process, no flow control);
//   - EnQueue takes a live mbuf that is no chain's member and in no queue
//     (a chain travels as its head); the queue holds it until DeQueue
//     hands it back. A full queue is DRV_ERROR_QUEUE_FULL, or, with
//     overWriteFlag, drops (frees) its oldest mbuf; DeQueue on an empty
//     queue is DRV_ERROR_QUEUE_EMPTY;
//   - Peek reports the data length of the mbuf at the front (its chain's
//     lengths summed): timeout 0 answers at once, > 0 waits that many
//     milliseconds for an mbuf (DRV_ERROR_QUEUE_EMPTY when none came), < 0
//     waits until one comes or the queue is destroyed;
//   - Destroy frees the mbufs still queued;
//   - bad pointers are DRV_ERROR_QUEUE_NULL_POINTER, other bad values
//     DRV_ERROR_QUEUE_PARA_ERROR (ascend_hal_define.h names both for the
//     queue family), a device id outside the node DRV_ERROR_INVALID_DEVICE;
//   - the queues are the emulated node's: aclFinalize (a new node) ends
//     them.

// Queue limits: MAX_QUEUE_NUM and QUEUE_MAX_STR_LEN of
// ascend_hal_external.h; the depth bound is npuemu's (no public value).
const (
	MaxQueueNum   = 8192
	QueueNameLen  = 128
	MaxQueueDepth = 1 << 16
	minQueueDepth = 2
)

// The queue family's codes (ascend_hal_define.h aliases).
const (
	errQueueNullPointer = abi.DRV_ERROR_INVALID_HANDLE
	errQueuePara        = abi.DRV_ERROR_PARA_ERROR
	errQueueNotInit     = abi.DRV_ERROR_UNINIT
	errQueueRepeated    = abi.DRV_ERROR_REPEATED_INIT
	errQueueNotCreated  = abi.DRV_ERROR_NOT_EXIST
	errQueueOutOfSize   = abi.DRV_ERROR_OVER_LIMIT
)

// queueRecord is one queue. Its fields are guarded by queues.mu.
type queueRecord struct {
	dev, qid  uint32
	name      string
	depth     uint32
	overWrite bool
	items     []*mbufHead // front first
	destroyed bool
}

// queues is the driver's table of queues.
var queues struct {
	mu     sync.Mutex // taken before mbufs.mu
	cond   sync.Cond  // on mu: broadcast on every enqueue and destroy
	node   *emu.Node  // the node the table belongs to
	inited map[uint32]bool
	byID   map[[2]uint32]*queueRecord
}

// queueNodeLocked returns the node for fn and makes the table the node's,
// dropping the queues of a node that was closed.
// Precondition: queues.mu held.
func queueNodeLocked(fn string, dev uint32) error {
	n, err := node(fn)
	if err != nil {
		return err
	}
	if err := checkDevice(fn, n, dev); err != nil {
		return err
	}
	if queues.node != n {
		queues.node = n
		queues.inited = map[uint32]bool{}
		queues.byID = map[[2]uint32]*queueRecord{}
		queues.cond.L = &queues.mu
	}
	return nil
}

// queueLocked resolves queue qid of dev for fn.
// Precondition: queues.mu held.
func queueLocked(fn string, dev, qid uint32) (*queueRecord, error) {
	if err := queueNodeLocked(fn, dev); err != nil {
		return nil, err
	}
	if !queues.inited[dev] {
		return nil, abi.DrvErrorf(errQueueNotInit, "%s: the queues of device %d are not initialised (halQueueInit)", fn, dev)
	}
	q := queues.byID[[2]uint32{dev, qid}]
	if q == nil {
		return nil, abi.DrvErrorf(errQueueNotCreated, "%s: device %d has no queue %d", fn, dev, qid)
	}
	return q, nil
}

// QueueInit implements halQueueInit.
func QueueInit(dev uint32) error {
	const fn = "halQueueInit"
	queues.mu.Lock()
	defer queues.mu.Unlock()
	if err := queueNodeLocked(fn, dev); err != nil {
		return err
	}
	if queues.inited[dev] {
		return abi.DrvErrorf(errQueueRepeated, "%s: the queues of device %d are already initialised", fn, dev)
	}
	queues.inited[dev] = true
	return nil
}

// QueueCreate implements halQueueCreate.
func QueueCreate(dev uint32, attr *QueueAttr, qid *uint32) error {
	const fn = "halQueueCreate"
	if attr == nil || qid == nil {
		return abi.DrvErrorf(errQueueNullPointer, "%s: queAttr and qid must not be NULL", fn)
	}
	name, ok := cString(attr.Name[:])
	if !ok {
		return abi.DrvErrorf(errQueuePara, "%s: the name does not end within %d bytes", fn, QueueNameLen)
	}
	if attr.Depth < minQueueDepth || attr.Depth > MaxQueueDepth {
		return abi.DrvErrorf(errQueuePara, "%s: depth %d: npuemu's queues hold %d..%d mbufs", fn, attr.Depth, minQueueDepth, MaxQueueDepth)
	}
	queues.mu.Lock()
	defer queues.mu.Unlock()
	if err := queueNodeLocked(fn, dev); err != nil {
		return err
	}
	if !queues.inited[dev] {
		return abi.DrvErrorf(errQueueNotInit, "%s: the queues of device %d are not initialised (halQueueInit)", fn, dev)
	}
	free := uint32(MaxQueueNum)
	for id := uint32(0); id < MaxQueueNum; id++ {
		q := queues.byID[[2]uint32{dev, id}]
		if q == nil && free == MaxQueueNum {
			free = id
		}
		if q != nil && name != "" && q.name == name {
			return abi.DrvErrorf(errQueuePara, "%s: device %d already has a queue named %q (%d)", fn, dev, name, id)
		}
	}
	if free == MaxQueueNum {
		return abi.DrvErrorf(errQueueOutOfSize, "%s: device %d has %d queues, the most it can hold", fn, dev, MaxQueueNum)
	}
	queues.byID[[2]uint32{dev, free}] = &queueRecord{dev: dev, qid: free, name: name, depth: attr.Depth, overWrite: attr.OverWriteFlag}
	*qid = free
	return nil
}

// cString is the NUL-terminated string at the start of b.
func cString(b []byte) (string, bool) {
	i := strings.IndexByte(string(b), 0)
	if i < 0 {
		return "", false
	}
	return string(b[:i]), true
}

// QueueDestroy implements halQueueDestroy: the queue and the mbufs it
// still holds.
func QueueDestroy(dev, qid uint32) error {
	const fn = "halQueueDestroy"
	queues.mu.Lock()
	defer queues.mu.Unlock()
	q, err := queueLocked(fn, dev, qid)
	if err != nil {
		return err
	}
	delete(queues.byID, [2]uint32{dev, qid})
	q.destroyed = true
	queues.cond.Broadcast()
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	var first error
	for _, m := range q.items {
		m.queued = nil
		if err := m.freeLocked(fn); err != nil && first == nil {
			first = err
		}
	}
	q.items = nil
	return first
}

// QueueEnQueue implements halQueueEnQueue: mbuf joins the back of the
// queue.
func QueueEnQueue(dev, qid uint32, h uintptr) error {
	const fn = "halQueueEnQueue"
	queues.mu.Lock()
	defer queues.mu.Unlock()
	q, err := queueLocked(fn, dev, qid)
	if err != nil {
		return err
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	if h == 0 {
		return abi.DrvErrorf(errQueueNullPointer, "%s: mbuf must not be NULL", fn)
	}
	m, err := mbufLocked(fn, "mbuf", h)
	if err != nil {
		return err
	}
	switch {
	case m.inChain != nil:
		return abi.DrvErrorf(errQueuePara, "%s: mbuf %#x is a member of the chain of %#x: enqueue the chain's head", fn, h, m.inChain.h)
	case m.queued != nil:
		return abi.DrvErrorf(errQueuePara, "%s: mbuf %#x is already in queue %d", fn, h, m.queued.qid)
	}
	if uint32(len(q.items)) >= q.depth {
		if !q.overWrite {
			return abi.DrvErrorf(abi.DRV_ERROR_QUEUE_FULL, "%s: queue %d of device %d holds %d mbufs, its depth", fn, qid, dev, q.depth)
		}
		old := q.items[0]
		q.items = q.items[1:]
		old.queued = nil
		if err := old.freeLocked(fn); err != nil {
			return err
		}
	}
	m.queued = q
	q.items = append(q.items, m)
	queues.cond.Broadcast()
	return nil
}

// QueueDeQueue implements halQueueDeQueue: the mbuf at the front, which
// the caller owns again.
func QueueDeQueue(dev, qid uint32, out *uintptr) error {
	const fn = "halQueueDeQueue"
	if out == nil {
		return abi.DrvErrorf(errQueueNullPointer, "%s: mbuf must not be NULL", fn)
	}
	queues.mu.Lock()
	defer queues.mu.Unlock()
	q, err := queueLocked(fn, dev, qid)
	if err != nil {
		return err
	}
	if len(q.items) == 0 {
		return abi.DrvErrorf(abi.DRV_ERROR_QUEUE_EMPTY, "%s: queue %d of device %d is empty", fn, qid, dev)
	}
	m := q.items[0]
	q.items = q.items[1:]
	mbufs.mu.Lock()
	m.queued = nil
	mbufs.mu.Unlock()
	*out = m.h
	return nil
}

// QueuePeek implements halQueuePeek: the data length of the front mbuf
// (its chain's lengths summed), waiting up to timeout milliseconds for
// one (< 0: until one comes or the queue is destroyed).
func QueuePeek(dev, qid uint32, bufLen *uint64, timeout int32) error {
	const fn = "halQueuePeek"
	if bufLen == nil {
		return abi.DrvErrorf(errQueueNullPointer, "%s: buf_len must not be NULL", fn)
	}
	queues.mu.Lock()
	defer queues.mu.Unlock()
	q, err := queueLocked(fn, dev, qid)
	if err != nil {
		return err
	}
	if len(q.items) == 0 && timeout != 0 {
		expired := false
		if timeout > 0 {
			t := time.AfterFunc(time.Duration(timeout)*time.Millisecond, func() {
				queues.mu.Lock()
				expired = true
				queues.cond.Broadcast()
				queues.mu.Unlock()
			})
			defer t.Stop()
		}
		for len(q.items) == 0 && !q.destroyed && !expired {
			queues.cond.Wait()
		}
	}
	if q.destroyed {
		return abi.DrvErrorf(errQueueNotCreated, "%s: queue %d of device %d was destroyed while waiting", fn, qid, dev)
	}
	if len(q.items) == 0 {
		return abi.DrvErrorf(abi.DRV_ERROR_QUEUE_EMPTY, "%s: queue %d of device %d is empty", fn, qid, dev)
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	m := q.items[0]
	total := m.dataLen
	for _, x := range m.chain[min(1, len(m.chain)):] {
		total += x.dataLen
	}
	*bufLen = total
	return nil
}
