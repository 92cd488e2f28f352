package tsfw

import (
	"encoding/binary"
	"math"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
)

// Built-in tasks: value wait/write (stream memory operations) and the
// reduce engine. Random numbers are in builtin_random.go.
//
// # Value waits
//
// A value wait is a host task (it blocks its queue, not an engine) that
// parks until the 8-byte word satisfies its condition. Device memory has
// no write notification, so a parked wait re-checks the word
//
//   - on every task completion of its device (a value write, a copy or a
//     kernel of any queue may have changed the word) and after every
//     synchronous copy or memset (CopyNow, MemsetNow);
//   - on a timer with exponential backoff from valueRecheckMin to
//     valueRecheckMax, for writes nobody announces (another device's
//     task, the host writing through a mapping).
//
// A write is therefore seen at once when it comes from this device's
// tasks or synchronous copies, and within valueRecheckMax otherwise. The
// wait registers before it reads the word, so a completion between the
// read and the park is never lost.

// Value-wait conditions (ACL_STREAM_WAIT_VALUE_*).
const (
	WaitGEQ uint32 = 0 // (int64)(*addr - value) >= 0
	WaitEQ  uint32 = 1 // *addr == value
	WaitAND uint32 = 2 // (*addr & value) != 0
	WaitNOR uint32 = 3 // ^(*addr | value) != 0
)

// Recheck period of a parked value wait.
const (
	valueRecheckMin = 50 * time.Microsecond
	valueRecheckMax = 2 * time.Millisecond
)

// memWatch wakes parked value waits when device memory may have changed.
type memWatch struct {
	n  atomic.Int32 // value waits between registration and wake-up
	mu sync.Mutex   // guards ch; a leaf lock (taken under Device.mu)
	ch chan struct{}
}

// memChanged wakes the parked value waits, if any: one atomic load when
// there are none, so completions pay nothing for the feature.
func (d *Device) memChanged() {
	if d.vw.n.Load() == 0 {
		return
	}
	d.vw.mu.Lock()
	if d.vw.ch != nil {
		close(d.vw.ch)
		d.vw.ch = nil
	}
	d.vw.mu.Unlock()
}

// memChan registers a value wait and returns the channel its next wake-up
// closes; the caller undoes the registration with d.vw.n.Add(-1).
func (d *Device) memChan() <-chan struct{} {
	d.vw.n.Add(1)
	d.vw.mu.Lock()
	defer d.vw.mu.Unlock()
	if d.vw.ch == nil {
		d.vw.ch = make(chan struct{})
	}
	return d.vw.ch
}

// ValueSatisfied reports whether word satisfies the wait condition flag
// against value.
func ValueSatisfied(word, value uint64, flag uint32) bool {
	switch flag {
	case WaitGEQ:
		return int64(word-value) >= 0
	case WaitEQ:
		return word == value
	case WaitAND:
		return word&value != 0
	case WaitNOR:
		return ^(word | value) != 0
	}
	return false
}

func checkWord(what string, addr uintptr) error {
	if addr == 0 || addr%8 != 0 {
		return abi.DevErrorf(abi.DevInvalidValue, "%s task: address %#x must be non-NULL and 8-byte aligned", what, addr)
	}
	return nil
}

// SubmitValueWait queues a task that blocks q until the 8-byte word at addr
// satisfies flag against value (see the conditions above).
func (q *Queue) SubmitValueWait(addr uintptr, value uint64, flag uint32) (uint32, error) {
	t, err := q.ValueWaitTask(addr, value, flag)
	if err != nil {
		return 0, err
	}
	return q.SubmitID(t)
}

// waitValue parks until the word satisfies the condition or the queue's
// task is cancelled (a cancelled wait completes without error: whoever
// cancelled it reports what happened).
func (d *Device) waitValue(q *Queue, addr uintptr, value uint64, flag uint32) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = abi.DevErrorf(abi.DevSDMAError, "value wait at %#x faulted: %v", addr, r)
		}
	}()
	cancel := q.Cancelled()
	backoff := valueRecheckMin
	timer := time.NewTimer(backoff)
	defer timer.Stop()
	for {
		ch := d.memChan()
		if ValueSatisfied(load64(addr), value, flag) {
			d.vw.n.Add(-1)
			return nil
		}
		timer.Reset(backoff)
		select {
		case <-ch:
			backoff = valueRecheckMin
		case <-timer.C:
			backoff = min(2*backoff, valueRecheckMax)
		case <-cancel:
			d.vw.n.Add(-1)
			return nil
		}
		d.vw.n.Add(-1)
	}
}

// ValueWriteTask writes value to the 8-byte word at addr on an SDMA engine;
// its completion wakes the device's value waits.
func ValueWriteTask(addr uintptr, value uint64) (Task, error) {
	if err := checkWord("value write", addr); err != nil {
		return Task{}, err
	}
	return Task{kind: kindEngine, dst: addr, n: 8, fn: func() error {
		store64(addr, value)
		return nil
	}}, nil
}

// ReduceOp is an element-wise reduction dst = dst OP src.
type ReduceOp uint8

// Reductions of the SDMA engine.
const (
	ReduceSum ReduceOp = iota
	ReduceMax
	ReduceMin
	// ReduceEqual stores 1 where dst == src and 0 elsewhere (npuemu's
	// reading of ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, whose result the
	// documentation does not spell out).
	ReduceEqual
)

// DType is an element type the built-in tasks compute with.
type DType uint8

// Element types of the built-in tasks.
const (
	Int8 DType = iota
	Int16
	Int32
	Int64
	Uint32
	Uint64
	Float16
	BFloat16
	Float32
)

// Size returns the element size in bytes.
func (t DType) Size() uint64 {
	switch t {
	case Int8:
		return 1
	case Int16, Float16, BFloat16:
		return 2
	case Int32, Uint32, Float32:
		return 4
	}
	return 8
}

// IsFloat reports whether t is a floating-point type.
func (t DType) IsFloat() bool { return t == Float16 || t == BFloat16 || t == Float32 }

// ReduceTask reduces n bytes (a whole number of elements) of src into dst
// on an SDMA engine. Integers wrap on overflow; half-precision values are
// computed in float32 and rounded to nearest even.
func ReduceTask(dst, src uintptr, n uint64, op ReduceOp, dt DType) (Task, error) {
	if op > ReduceEqual {
		return Task{}, abi.DevErrorf(abi.DevInvalidValue, "reduce task: unknown operation %d", op)
	}
	if dt != Int8 && dt != Int16 && dt != Int32 && !dt.IsFloat() {
		return Task{}, abi.DevErrorf(abi.DevInvalidValue, "reduce task: unsupported element type %d", dt)
	}
	if n%dt.Size() != 0 {
		return Task{}, abi.DevErrorf(abi.DevInvalidValue, "reduce task: %d bytes is not a whole number of %d-byte elements", n, dt.Size())
	}
	return Task{kind: kindEngine, dst: dst, src: src, n: n, fn: func() error {
		for off := uint64(0); off < n; {
			c := min(n-off, chunk)
			Reduce(bytesAt(dst+uintptr(off), c), bytesAt(src+uintptr(off), c), op, dt)
			off += c
		}
		return nil
	}}, nil
}

// Reduce computes dst = dst OP src element-wise over little-endian
// elements of type dt; it is the engine's arithmetic, exported for tests
// and references.
func Reduce(dst, src []byte, op ReduceOp, dt DType) {
	sz := int(dt.Size())
	for i := 0; i+sz <= len(dst) && i+sz <= len(src); i += sz {
		d, s := dst[i:i+sz], src[i:i+sz]
		switch dt {
		case Int8:
			d[0] = byte(reduceInt(int64(int8(d[0])), int64(int8(s[0])), op))
		case Int16:
			binary.LittleEndian.PutUint16(d, uint16(reduceInt(int64(int16(binary.LittleEndian.Uint16(d))), int64(int16(binary.LittleEndian.Uint16(s))), op)))
		case Int32:
			binary.LittleEndian.PutUint32(d, uint32(reduceInt(int64(int32(binary.LittleEndian.Uint32(d))), int64(int32(binary.LittleEndian.Uint32(s))), op)))
		case Float32:
			r := reduceFloat(math.Float32frombits(binary.LittleEndian.Uint32(d)), math.Float32frombits(binary.LittleEndian.Uint32(s)), op)
			binary.LittleEndian.PutUint32(d, math.Float32bits(r))
		case Float16:
			r := reduceFloat(HalfToFloat(binary.LittleEndian.Uint16(d)), HalfToFloat(binary.LittleEndian.Uint16(s)), op)
			binary.LittleEndian.PutUint16(d, FloatToHalf(r))
		case BFloat16:
			r := reduceFloat(BF16ToFloat(binary.LittleEndian.Uint16(d)), BF16ToFloat(binary.LittleEndian.Uint16(s)), op)
			binary.LittleEndian.PutUint16(d, FloatToBF16(r))
		}
	}
}

func reduceInt(a, b int64, op ReduceOp) int64 {
	switch op {
	case ReduceSum:
		return a + b // truncated to the element width by the caller: wraps
	case ReduceMax:
		return max(a, b)
	case ReduceMin:
		return min(a, b)
	}
	if a == b {
		return 1
	}
	return 0
}

func reduceFloat(a, b float32, op ReduceOp) float32 {
	switch op {
	case ReduceSum:
		return a + b
	case ReduceMax:
		if b > a || a != a {
			return b
		}
		return a
	case ReduceMin:
		if b < a || a != a {
			return b
		}
		return a
	}
	if a == b {
		return 1
	}
	return 0
}

// HalfToFloat converts an IEEE 754 binary16 value to float32 exactly.
func HalfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1F
	frac := uint32(h) & 0x3FF
	switch {
	case exp == 0x1F: // Inf, NaN
		return math.Float32frombits(sign | 0xFF<<23 | frac<<13)
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: value = frac * 2^-24
		f := float32(frac) / (1 << 24)
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}

// FloatToHalf converts f to binary16, rounding to nearest even; overflow
// gives ±Inf.
func FloatToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xFF
	frac := b & 0x7FFFFF
	if exp == 0xFF {
		if frac != 0 {
			return sign | 0x7E00
		}
		return sign | 0x7C00
	}
	e := exp - 127 + 15
	if e >= 0x1F {
		return sign | 0x7C00
	}
	if e <= 0 {
		if e < -10 {
			return sign
		}
		m := frac | 0x800000
		shift := uint32(14 - e)
		h := m >> shift
		rem := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && h&1 != 0) {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(e)<<10 | frac>>13
	rem := frac & 0x1FFF
	if rem > 0x1000 || (rem == 0x1000 && h&1 != 0) {
		h++ // may carry into the exponent, up to Inf: still correct
	}
	return sign | uint16(h)
}

// BF16ToFloat converts a bfloat16 value to float32 exactly.
func BF16ToFloat(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// FloatToBF16 converts f to bfloat16, rounding to nearest even.
func FloatToBF16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7FFFFFFF > 0x7F800000 {
		return uint16(b>>16) | 0x40 // quiet NaN
	}
	b += 0x7FFF + (b>>16)&1
	return uint16(b >> 16)
}
