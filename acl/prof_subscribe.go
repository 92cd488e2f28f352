package acl

import (
	"encoding/binary"
	"hash/crc32"
	"strconv"
	"sync"
	"syscall"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/timeline"
)

// Model subscription (aclprofModelSubscribe; prof-api.md §5). A model is
// an aclmdlRI (npuemu has no aclmdlLoad): subscribing to its id delivers,
// through the caller's pipe, one 80-byte op record for every kernel that
// completes on the model's device until aclprofModelUnSubscribe — npuemu
// does not tell which model a kernel came from, so every kernel of the
// device is reported under the subscribed id. Records are written by one
// goroutine per subscription as the kernels complete, whole (80 bytes, so
// atomic on a pipe); unsubscribing drains them, then closes the write end
// and sets the caller's int to -1 (when no other subscription shares it).

// castagnoli is made on first use: with SSE 4.2 the table takes hash/crc32
// some 0.1 ms to build, and every process start would pay it.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// crc32cNoXor is CRC-32C with initial value ~0 and no final XOR.
func crc32cNoXor(b []byte) uint32 { return ^crc32.Checksum(b, castagnoli()) }

// opSignature is the record's signature: crc32cNoXor of bytes 4..79.
func opSignature(rec []byte) uint32 { return crc32cNoXor(rec[4:core.OpDescSize]) }

type subConfig struct {
	timeInfo bool
	metrics  int32
	fd       int
	clearFD  func() // stores -1 into the caller's int
}

type subscription struct {
	model  uint32
	cfg    *subConfig
	dev    int
	cancel func()

	mu      sync.Mutex
	cond    sync.Cond
	queue   []timeline.Task // guarded by mu
	closing bool            // guarded by mu
	done    chan struct{}
}

type opStrings struct {
	typ, name           string
	typTaken, nameTaken bool
}

var subs struct {
	mu sync.Mutex
	// Guarded by mu.
	configs  map[uintptr]*subConfig
	next     uintptr
	byModel  map[uint32]*subscription
	ops      map[uint64]*opStrings
	opNext   uint64
	attached bool
}

const subTag = uintptr(0x5055) << 48

// ProfCreateSubscribeConfig implements aclprofCreateSubscribeConfig; fd is
// the write end the caller's int holds, clearFD stores -1 into that int.
func ProfCreateSubscribeConfig(t *core.Thread, timeInfo int8, metrics int32, fdPtrNil bool, fd int, clearFD func()) uintptr {
	if fdPtrNil || (timeInfo != 0 && timeInfo != 1) {
		t.Fail(abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclprofCreateSubscribeConfig: want timeInfoSwitch 0 or 1 and a non-NULL fd"))
		return 0
	}
	subs.mu.Lock()
	defer subs.mu.Unlock()
	if subs.configs == nil {
		subs.configs = map[uintptr]*subConfig{}
	}
	subs.next++
	h := subTag | subs.next<<4
	subs.configs[h] = &subConfig{timeInfo: timeInfo == 1, metrics: metrics, fd: fd, clearFD: clearFD}
	return h
}

// ProfDestroySubscribeConfig implements aclprofDestroySubscribeConfig.
func ProfDestroySubscribeConfig(t *core.Thread, h uintptr) error {
	subs.mu.Lock()
	defer subs.mu.Unlock()
	if _, ok := subs.configs[h]; !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclprofDestroySubscribeConfig: %#x is not a live aclprofSubscribeConfig", h)
	}
	delete(subs.configs, h)
	return nil
}

// modelDevice returns the device of the live model run instance id.
func modelDevice(id uint32) (int, bool) {
	core.ModelRIs.Mu.RLock()
	defer core.ModelRIs.Mu.RUnlock()
	for _, s := range core.ModelRIs.Slots {
		if ri := s.Obj; ri != nil && ri.Id == id && ri.Dev != nil {
			return ri.Dev.Emu.TS.TraceID(), true
		}
	}
	return 0, false
}

// ProfModelSubscribe implements aclprofModelSubscribe.
func ProfModelSubscribe(t *core.Thread, model uint32, h uintptr) error {
	const fn = "aclprofModelSubscribe"
	prof.mu.Lock()
	defer prof.mu.Unlock()
	subs.mu.Lock()
	defer subs.mu.Unlock()
	cfg, ok := subs.configs[h]
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %#x is not a live aclprofSubscribeConfig", fn, h)
	}
	if prof.mode == profAPI {
		return abi.Errorf(abi.ACL_ERROR_PROF_API_CONFLICT, "%s: not between aclprofInit and aclprofFinalize", fn)
	}
	dev, ok := modelDevice(model)
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_MODEL_ID, "%s: model %d is not a live model (aclmdlRI id)", fn, model)
	}
	if subs.byModel[model] != nil {
		return abi.Errorf(abi.ACL_ERROR_PROF_REPEAT_SUBSCRIBE, "%s: model %d is already subscribed", fn, model)
	}
	r := timeline.Current()
	if r == nil {
		r = timeline.NewRecorder()
		timeline.Attach(r)
		subs.attached = true
	}
	s := &subscription{model: model, cfg: cfg, dev: dev, done: make(chan struct{})}
	s.cond.L = &s.mu
	s.cancel = r.Subscribe(func(tk timeline.Task) {
		if tk.Kind != "kernel" || tk.Dev != s.dev {
			return
		}
		s.mu.Lock()
		s.queue = append(s.queue, tk)
		s.mu.Unlock()
		s.cond.Signal()
	})
	if subs.byModel == nil {
		subs.byModel = map[uint32]*subscription{}
	}
	subs.byModel[model] = s
	prof.mode = profSubscribe
	go s.deliver()
	return nil
}

// deliver writes the queued tasks' records until the subscription closes
// and its queue is empty.
func (s *subscription) deliver() {
	defer close(s.done)
	var rec [core.OpDescSize]byte
	for {
		s.mu.Lock()
		for len(s.queue) == 0 && !s.closing {
			s.cond.Wait()
		}
		batch := s.queue
		s.queue = nil
		closing := s.closing
		s.mu.Unlock()
		for _, tk := range batch {
			s.encode(rec[:], &tk)
			if writeAll(s.cfg.fd, rec[:]) != nil {
				break // the reader went away: nothing more to deliver to
			}
		}
		if closing && len(batch) == 0 {
			return
		}
	}
}

func writeAll(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := syscall.Write(fd, b)
		if err == syscall.EINTR || err == syscall.EAGAIN {
			continue
		}
		if err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

// encode fills rec with tk's op record.
func (s *subscription) encode(rec []byte, tk *timeline.Task) {
	clear(rec)
	subs.mu.Lock()
	subs.opNext++
	idx := subs.opNext
	if subs.ops == nil {
		subs.ops = map[uint64]*opStrings{}
	}
	subs.ops[idx] = &opStrings{typ: tk.Name, name: tk.Name}
	subs.mu.Unlock()
	le := binary.LittleEndian
	le.PutUint32(rec[4:], s.model)
	le.PutUint32(rec[8:], abi.ACL_SUBSCRIBE_OP)
	le.PutUint64(rec[16:], idx)
	if s.cfg.timeInfo {
		d := uint64(tk.End - tk.Start)
		le.PutUint64(rec[24:], d)
		le.PutUint64(rec[32:], uint64(tk.Start))
		le.PutUint64(rec[40:], uint64(tk.End))
		le.PutUint64(rec[48:], d)
	}
	le.PutUint32(rec[72:], uint32(tk.Dev))
	le.PutUint32(rec[0:], opSignature(rec))
}

// ProfModelUnSubscribe implements aclprofModelUnSubscribe.
func ProfModelUnSubscribe(t *core.Thread, model uint32) error {
	prof.mu.Lock()
	defer prof.mu.Unlock()
	subs.mu.Lock()
	s := subs.byModel[model]
	if s == nil {
		subs.mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_INVALID_MODEL_ID, "aclprofModelUnSubscribe: model %d is not subscribed", model)
	}
	delete(subs.byModel, model)
	shared := false
	for _, o := range subs.byModel {
		shared = shared || o.cfg.fd == s.cfg.fd
	}
	last := len(subs.byModel) == 0
	subs.mu.Unlock()

	s.cancel()
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.cond.Signal()
	<-s.done
	if !shared {
		syscall.Close(s.cfg.fd)
		if s.cfg.clearFD != nil {
			s.cfg.clearFD()
		}
	}
	if last {
		prof.mode = profOff
		subs.mu.Lock()
		if subs.attached {
			timeline.Attach(nil)
			subs.attached = false
		}
		subs.mu.Unlock()
	}
	return nil
}

// checkOpInfo validates a buffer of op records: whole records, each with
// a valid signature.
func checkOpInfo(fn string, info []byte) error {
	if info == nil || len(info)%core.OpDescSize != 0 || len(info) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: opInfoLen %d is not a positive multiple of %d", fn, len(info), core.OpDescSize)
	}
	for off := 0; off < len(info); off += core.OpDescSize {
		rec := info[off : off+core.OpDescSize]
		if binary.LittleEndian.Uint32(rec) != opSignature(rec) {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: record %d has a bad signature (not an op record)", fn, off/core.OpDescSize)
		}
	}
	return nil
}

// opRecord returns record index of info after checking the buffer.
func opRecord(fn string, info []byte, index uint32) ([]byte, error) {
	if err := checkOpInfo(fn, info); err != nil {
		return nil, err
	}
	if (int(index)+1)*core.OpDescSize > len(info) {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: index %d beyond the %d records", fn, index, len(info)/core.OpDescSize)
	}
	return info[int(index)*core.OpDescSize:][:core.OpDescSize], nil
}

// ProfGetOpNum implements aclprofGetOpNum.
func ProfGetOpNum(t *core.Thread, info []byte, n *uint32) error {
	if err := checkOpInfo("aclprofGetOpNum", info); err != nil {
		return err
	}
	if n == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclprofGetOpNum: opNumber must not be NULL")
	}
	*n = uint32(len(info) / core.OpDescSize)
	return nil
}

// opString returns the type or name string of a record, still unfetched.
func opString(fn string, info []byte, index uint32, name bool) (*opStrings, string, error) {
	rec, err := opRecord(fn, info, index)
	if err != nil {
		return nil, "", err
	}
	subs.mu.Lock()
	defer subs.mu.Unlock()
	o := subs.ops[binary.LittleEndian.Uint64(rec[16:])]
	if o == nil || (name && o.nameTaken) || (!name && o.typTaken) {
		return nil, "", abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: the string of record %d was already fetched (each is delivered once) or is unknown to this process", fn, index)
	}
	if name {
		return o, o.name, nil
	}
	return o, o.typ, nil
}

// ProfGetOpStringLen implements aclprofGetOpTypeLen / aclprofGetOpNameLen.
func ProfGetOpStringLen(t *core.Thread, fn string, info []byte, index uint32, name bool, n *uint64) error {
	_, s, err := opString(fn, info, index, name)
	if err != nil {
		return err
	}
	if n == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: the length pointer must not be NULL", fn)
	}
	*n = uint64(len(s) + 1)
	return nil
}

// ProfGetOpString implements aclprofGetOpType / aclprofGetOpName: copies
// the string into buf (NUL at buf[len-1] at the latest) and forgets it.
func ProfGetOpString(t *core.Thread, fn string, info []byte, index uint32, name bool, buf []byte) error {
	o, s, err := opString(fn, info, index, name)
	if err != nil {
		return err
	}
	if buf == nil || len(buf) < len(s) || len(buf) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: buffer of %d bytes for a string of %d", fn, len(buf), len(s))
	}
	n := copy(buf, s)
	if n < len(buf) {
		buf[n] = 0
	}
	buf[len(buf)-1] = 0
	subs.mu.Lock()
	if name {
		o.nameTaken = true
	} else {
		o.typTaken = true
	}
	if o.nameTaken && o.typTaken {
		for k, v := range subs.ops {
			if v == o {
				delete(subs.ops, k)
			}
		}
	}
	subs.mu.Unlock()
	return nil
}

// ProfGetOpU64 reads the u64 field at off of a record (0 on error).
func ProfGetOpU64(t *core.Thread, fn string, info []byte, index uint32, off int) uint64 {
	rec, err := opRecord(fn, info, index)
	if err != nil {
		t.Fail(err)
		return 0
	}
	return binary.LittleEndian.Uint64(rec[off:])
}

// ProfGetModelID implements aclprofGetModelId: on error the reference
// returns the error code's value.
func ProfGetModelID(t *core.Thread, info []byte, index uint32) uint64 {
	rec, err := opRecord("aclprofGetModelId", info, index)
	if err != nil {
		return uint64(t.Fail(err))
	}
	return uint64(binary.LittleEndian.Uint32(rec[4:]))
}

// ProfGetOpFlag implements aclprofGetOpFlag (no signature check).
func ProfGetOpFlag(t *core.Thread, info []byte, nilInfo bool, index uint32) int32 {
	if nilInfo {
		return abi.ACL_SUBSCRIBE_NONE
	}
	if (int(index)+1)*core.OpDescSize > len(info) {
		return 0
	}
	return int32(binary.LittleEndian.Uint32(info[int(index)*core.OpDescSize+8:]))
}

// ProfGetOpAttriValue implements aclprofGetOpAttriValue: the thread id of
// an OP_THREAD record as a decimal string, else "" (NULL).
func ProfGetOpAttriValue(t *core.Thread, info []byte, index uint32, attri int32) (string, bool) {
	if attri != abi.ACL_SUBSCRIBE_ATTRI_THREADID || (int(index)+1)*core.OpDescSize > len(info) {
		return "", false
	}
	rec := info[int(index)*core.OpDescSize:]
	if binary.LittleEndian.Uint32(rec[8:]) != abi.ACL_SUBSCRIBE_OP_THREAD {
		return "", false
	}
	return strconv.FormatUint(uint64(binary.LittleEndian.Uint32(rec[12:])), 10), true
}
