package tsfw

import (
	"testing"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newNotify(t *testing.T, d *Device) *Notify {
	t.Helper()
	n, err := d.NewNotify()
	require.NoError(t, err)
	t.Cleanup(n.Destroy)
	return n
}

func TestNotifyOneRecordReleasesOneWait(t *testing.T) {
	d := newDev(t, Config{})
	n := newNotify(t, d)
	q1, q2, q3 := newQ(t, d, 0), newQ(t, d, 0), newQ(t, d, 0)

	require.NoError(t, q1.Submit(NotifyWaitTask(n, 0)))
	require.NoError(t, q2.Submit(NotifyWaitTask(n, 0)))
	assert.False(t, q1.Query())
	assert.False(t, q2.Query())

	require.NoError(t, q3.Submit(NotifyRecordTask(n)))
	require.NoError(t, q3.Synchronize(-1))
	// Exactly one of the two waits consumed the record.
	assert.NotEqual(t, q1.Query(), q2.Query(), "one record must release exactly one wait")
	assert.False(t, n.IsSet(), "the released wait resets the notify")

	require.NoError(t, q3.Submit(NotifyRecordTask(n)))
	require.NoError(t, q1.Synchronize(-1))
	require.NoError(t, q2.Synchronize(-1))
	assert.False(t, n.IsSet())
}

func TestNotifyRecordBeforeWaitAndHostReset(t *testing.T) {
	d := newDev(t, Config{})
	n := newNotify(t, d)
	q := newQ(t, d, 0)

	require.NoError(t, q.Submit(NotifyRecordTask(n)))
	require.NoError(t, q.Submit(NotifyRecordTask(n))) // a set flag stays set, once
	require.NoError(t, q.Synchronize(-1))
	assert.True(t, n.IsSet())
	require.NoError(t, q.Submit(NotifyWaitTask(n, 0)))
	require.NoError(t, q.Synchronize(-1))
	assert.False(t, n.IsSet(), "records do not accumulate")

	require.NoError(t, q.Submit(NotifyRecordTask(n)))
	require.NoError(t, q.Synchronize(-1))
	require.NoError(t, n.Reset())
	assert.False(t, n.IsSet())
	require.NoError(t, q.Submit(NotifyWaitTask(n, 0)))
	assert.False(t, q.Query(), "a reset notify blocks the next wait")
	require.NoError(t, q.Submit(NotifyRecordTask(n))) // behind the wait: never runs
	q2 := newQ(t, d, 0)
	require.NoError(t, q2.Submit(NotifyRecordTask(n)))
	require.NoError(t, q.Synchronize(-1))
}

func TestNotifyAcrossDevices(t *testing.T) {
	d0 := newDev(t, Config{Name: "dev0"})
	d1 := newDev(t, Config{Name: "dev1"})
	n := newNotify(t, d0)
	q0, q1 := newQ(t, d0, 0), newQ(t, d1, 0)

	// A wait on dev1 for a notify of dev0, released by a record on dev0.
	require.NoError(t, q1.Submit(NotifyWaitTask(n, 0)))
	assert.False(t, q1.Query())
	require.NoError(t, q0.Submit(NotifyRecordTask(n)))
	require.NoError(t, q1.Synchronize(-1))

	// A record issued on dev1 into dev0's notify releases a wait on dev0.
	require.NoError(t, q0.Submit(NotifyWaitTask(n, 0)))
	require.NoError(t, q1.Submit(NotifyRecordTask(n)))
	require.NoError(t, q0.Synchronize(-1))
}

func TestWaitTimeouts(t *testing.T) {
	d := newDev(t, Config{})
	n := newNotify(t, d)
	c, err := d.NewCntNotify()
	require.NoError(t, err)
	defer c.Destroy()
	e := newEv(t, d)
	rec := newQ(t, d, 0)
	g := newGate()
	require.NoError(t, rec.Submit(g.task())) // holds the record back
	require.NoError(t, rec.Submit(RecordTask(e)))
	defer g.open()

	tests := []struct {
		name string
		task Task
	}{
		{"notify", NotifyWaitTask(n, 10*time.Millisecond)},
		{"cnt notify", CntWaitTask(c, CntEqual, 5, false, 10*time.Millisecond)},
		{"event", WaitTaskTimeout(e, 10*time.Millisecond)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := newQ(t, d, 0)
			require.NoError(t, q.Submit(tt.task))
			after := newEv(t, d)
			require.NoError(t, q.Submit(RecordTask(after))) // runs after the expired wait
			err := q.Synchronize(-1)
			require.Error(t, err)
			assert.True(t, isCode(err, abi.ACL_ERROR_RT_WAIT_TIMEOUT), "got %v", err)
			assert.True(t, after.Complete())
			assert.True(t, q.Query())
			assert.NoError(t, q.Synchronize(-1), "the error is reported once")
		})
	}
}

func TestCntNotifyOps(t *testing.T) {
	rec := []struct {
		mode                 CntRecordMode
		value, before, after uint32
	}{
		{CntSet, 7, 3, 7},
		{CntAdd, 5, 3, 8},
		{CntAdd, 1, 0xFFFFFFFF, 0},
		{CntOr, 0b100, 0b011, 0b111},
		{CntAnd, 0b110, 0b011, 0b010},
	}
	for _, tt := range rec {
		assert.Equal(t, tt.after, cntOp{record: tt.mode, value: tt.value}.apply(tt.before), "mode %d", tt.mode)
	}
	wait := []struct {
		mode         CntWaitMode
		value, count uint32
		holds        bool
	}{
		{CntLess, 5, 4, true},
		{CntLess, 5, 5, false},
		{CntEqual, 5, 5, true},
		{CntEqual, 5, 6, false},
		{CntBigger, 5, 6, true},
		{CntBigger, 5, 5, false},
		{CntBiggerEqual, 5, 5, true},
		{CntBiggerEqual, 5, 4, false},
		{CntEqualBitmask, 0b101, 0b111, true},
		{CntEqualBitmask, 0b101, 0b011, false},
	}
	for _, tt := range wait {
		assert.Equal(t, tt.holds, cntOp{wait: tt.mode, value: tt.value}.holds(tt.count), "mode %d value %d count %d", tt.mode, tt.value, tt.count)
	}
}

func TestCntNotifyWaitAndClear(t *testing.T) {
	d0 := newDev(t, Config{Name: "dev0"})
	d1 := newDev(t, Config{Name: "dev1"})
	c, err := d0.NewCntNotify()
	require.NoError(t, err)
	defer c.Destroy()
	q0, q1 := newQ(t, d0, 0), newQ(t, d1, 0)

	require.NoError(t, q1.Submit(CntWaitTask(c, CntBiggerEqual, 3, true, 0)))
	for range 2 {
		require.NoError(t, q0.Submit(CntRecordTask(c, CntAdd, 1)))
	}
	require.NoError(t, q0.Synchronize(-1))
	assert.Equal(t, uint32(2), c.Count())
	assert.False(t, q1.Query(), "2 >= 3 does not hold")
	require.NoError(t, q0.Submit(CntRecordTask(c, CntAdd, 1)))
	require.NoError(t, q1.Synchronize(-1))
	assert.Equal(t, uint32(0), c.Count(), "isClear resets the counter on release")

	// Without clear the counter stays; a queued reset zeroes it.
	require.NoError(t, q0.Submit(CntRecordTask(c, CntSet, 9)))
	require.NoError(t, q0.Submit(CntWaitTask(c, CntEqual, 9, false, 0)))
	require.NoError(t, q0.Synchronize(-1))
	assert.Equal(t, uint32(9), c.Count())
	require.NoError(t, q0.Submit(CntResetTask(c)))
	require.NoError(t, q0.Submit(CntWaitTask(c, CntLess, 1, false, 0)))
	require.NoError(t, q0.Synchronize(-1))
	assert.Equal(t, uint32(0), c.Count())

	q := newQ(t, d0, 0)
	assert.Error(t, q.Submit(CntRecordTask(c, cntRecordModes, 1)), "there are four record modes")
	assert.Error(t, q.Submit(CntWaitTask(c, cntWaitModes, 1, false, 0)))
}

func TestNotifyPool(t *testing.T) {
	d := newDev(t, Config{MaxNotifies: 2})
	a, err := d.NewNotify()
	require.NoError(t, err)
	b, err := d.NewCntNotify()
	require.NoError(t, err)
	assert.Equal(t, 2, d.NotifiesInUse())
	_, err = d.NewNotify()
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_NO_NOTIFY_RESOURCE), "got %v", err)
	_, err = d.NewCntNotify()
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_NO_NOTIFY_RESOURCE), "got %v", err)
	a.Destroy()
	a.Destroy() // idempotent
	assert.Equal(t, 1, d.NotifiesInUse())
	c, err := d.NewNotify()
	require.NoError(t, err)
	assert.Equal(t, a.ID(), c.ID(), "the freed id is reused")

	q := newQ(t, d, 0)
	assert.Error(t, q.Submit(NotifyRecordTask(a)), "record of a destroyed notify")
	assert.Error(t, q.Submit(NotifyWaitTask(a, 0)))
	assert.Error(t, a.Reset())
	b.Destroy()
	assert.Error(t, q.Submit(CntRecordTask(b, CntSet, 1)))
	c.Destroy()
	assert.Equal(t, 0, d.NotifiesInUse())
}

func TestUnpooledEvents(t *testing.T) {
	d := newDev(t, Config{MaxEvents: 1})
	e := newEv(t, d)
	_, err := d.NewEvent(0)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_NO_EVENT_RESOURCE), "got %v", err)
	u := d.NewEventUnpooled(0)
	assert.Equal(t, 1, d.EventsInUse(), "an unpooled event takes no id")
	assert.NotEqual(t, e.ID(), u.ID())
	q := newQ(t, d, 0)
	require.NoError(t, q.Submit(RecordTask(u)))
	require.NoError(t, u.Synchronize(-1))
	u.Destroy()
	assert.Equal(t, 1, d.EventsInUse())
	e.Destroy()
	assert.Equal(t, 0, d.EventsInUse())
}

func TestNotifyWaitVirtualTime(t *testing.T) {
	d := newDev(t, Config{})
	n := newNotify(t, d)
	q0, q1 := newQ(t, d, 0), newQ(t, d, 0)
	_, hb := buf(t, 1<<20)
	_, db := buf(t, 1<<20)
	e0, e1 := newEv(t, d), newEv(t, d)
	require.NoError(t, q0.Submit(CopyTask(db, hb, 1<<20, HostToDevice)))
	require.NoError(t, q0.Submit(NotifyRecordTask(n)))
	require.NoError(t, q0.Submit(RecordTask(e0)))
	require.NoError(t, q1.Submit(NotifyWaitTask(n, 0)))
	require.NoError(t, q1.Submit(RecordTask(e1)))
	require.NoError(t, q1.Synchronize(-1))
	require.NoError(t, q0.Synchronize(-1))
	t0, ok0 := e0.Timestamp()
	t1, ok1 := e1.Timestamp()
	require.True(t, ok0)
	require.True(t, ok1)
	assert.Greater(t, t1, t0, "the wait starts after the record it pairs with")
}
