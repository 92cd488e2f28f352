package acl

import (
	"encoding/binary"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Built-in tasks (semantics.md §10, stream memory operations and system
// tasks): aclrtValueWrite / aclrtValueWait, aclrtReduceAsync and
// aclrtRandomNumAsync. Their device-side work is Go code in tsfw
// (builtin.go, builtin_random.go) running on the device's engines; this
// file validates the arguments and translates the ACL enums. See
// docs/callbacks.md for the generator and the value-wait wake-up rules.

// deviceOperand checks that addr names at least n bytes of device memory of
// the stream's device (or of a peer it may access).
func deviceOperand(fn, what string, s *core.Stream, addr uintptr, n uint64) error {
	if addr == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s must not be NULL", fn, what)
	}
	pi, err := core.Classify(fn, what, addr)
	if err != nil {
		return err
	}
	if pi.Class != core.Devmem {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %s %#x is not device memory", fn, what, addr)
	}
	if err := core.CheckRoom(fn, what, addr, pi, n); err != nil {
		return err
	}
	return core.SameDevice(fn, s, pi)
}

// memOpStream resolves the stream of a stream memory operation, which
// only 950/A3/A2 support.
func memOpStream(t *core.Thread, fn string, addr uintptr, sh core.Handle) (*core.Stream, error) {
	if addr == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: devAddr must not be NULL", fn)
	}
	if addr%8 != 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: devAddr %#x must be 8-byte aligned", fn, addr)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return nil, err
	}
	return s, deviceOperand(fn, "devAddr", s, addr, 8)
}

// ValueWrite implements aclrtValueWrite: the stream writes the 8-byte
// value at devAddr (flag must be 0).
func ValueWrite(t *core.Thread, addr uintptr, value uint64, flag uint32, sh core.Handle) error {
	const fn = "aclrtValueWrite"
	if flag != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag %d: must be 0", fn, flag)
	}
	s, err := memOpStream(t, fn, addr, sh)
	if err != nil {
		return err
	}
	task, err := tsfw.ValueWriteTask(addr, value)
	if err != nil {
		return abi.Wrapf(err, "%s", fn)
	}
	var op *core.ValueOp
	if core.Sanitizing || s.Capturing() {
		op = &core.ValueOp{Addr: addr, Value: value}
	}
	return s.Queue(t, fn, task, core.Queued{ValueOp: op, Counted: true})
}

// ValueWait implements aclrtValueWait: the stream's later tasks wait until
// the 8-byte word at devAddr satisfies the ACL_STREAM_WAIT_VALUE_* flag.
// On a capturing or bound stream both are recorded (capture.go, valueOp).
func ValueWait(t *core.Thread, addr uintptr, value uint64, flag uint32, sh core.Handle) error {
	const fn = "aclrtValueWait"
	if flag > abi.ACL_STREAM_WAIT_VALUE_NOR {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag %d: want ACL_STREAM_WAIT_VALUE_GEQ/EQ/AND/NOR (0..3)", fn, flag)
	}
	s, err := memOpStream(t, fn, addr, sh)
	if err != nil {
		return err
	}
	task, err := s.SQ.ValueWaitTask(addr, value, flag)
	if err != nil {
		return abi.Wrapf(err, "%s", fn)
	}
	var op *core.ValueOp
	if core.Sanitizing || s.Capturing() {
		// Recorded with its parameters: replays bind it to their queue.
		op = &core.ValueOp{Wait: true, Addr: addr, Value: value, Flag: flag}
	}
	return s.Queue(t, fn, task, core.Queued{ValueOp: op, Counted: true})
}

var reduceOps = map[int32]tsfw.ReduceOp{
	abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM:   tsfw.ReduceSum,
	abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX:   tsfw.ReduceMax,
	abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN:   tsfw.ReduceMin,
	abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL: tsfw.ReduceEqual,
}

// reduceTypes are the element types of aclrtReduceAsync on the emulated
// SoCs (the A2 list of the documentation).
var reduceTypes = map[int32]tsfw.DType{
	abi.ACL_INT8:    tsfw.Int8,
	abi.ACL_INT16:   tsfw.Int16,
	abi.ACL_INT32:   tsfw.Int32,
	abi.ACL_FLOAT16: tsfw.Float16,
	abi.ACL_FLOAT:   tsfw.Float32,
	abi.ACL_BF16:    tsfw.BFloat16,
}

// ReduceAsync implements aclrtReduceAsync: dst = dst OP src element-wise
// over count bytes, on the stream's SDMA engines.
func ReduceAsync(t *core.Thread, dst, src uintptr, count uint64, kind, dtype int32, sh core.Handle, reserve uintptr) error {
	const fn = "aclrtReduceAsync"
	if reserve != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: reserve must be NULL", fn)
	}
	op, ok := reduceOps[kind]
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: kind %d: want ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM/MAX/MIN/EQUAL (10..13)", fn, kind)
	}
	dt, ok := reduceTypes[dtype]
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: data type %d: want ACL_INT8, ACL_INT16, ACL_INT32, ACL_FLOAT16, ACL_FLOAT or ACL_BF16", fn, dtype)
	}
	if dst == 0 || src == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dst and src must not be NULL", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if f := s.Ctx.Dev.Emu.SoC.Family; op != tsfw.ReduceSum && (f == emu.Family310P || f == emu.FamilyA1) {
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: only ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM is supported on %s", fn, s.Ctx.Dev.Emu.SoC.Name)
	}
	if count%dt.Size() != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: count %d bytes is not a whole number of %d-byte elements", fn, count, dt.Size())
	}
	if count == 0 {
		return nil
	}
	if err := deviceOperand(fn, "dst", s, dst, count); err != nil {
		return err
	}
	if err := deviceOperand(fn, "src", s, src, count); err != nil {
		return err
	}
	task, err := tsfw.ReduceTask(dst, src, count, op, dt)
	if err != nil {
		return abi.Wrapf(err, "%s", fn)
	}
	return s.SubmitTask(t, fn, task)
}

var randomTypes = map[int32]tsfw.DType{
	abi.ACL_INT32:   tsfw.Int32,
	abi.ACL_INT64:   tsfw.Int64,
	abi.ACL_UINT32:  tsfw.Uint32,
	abi.ACL_UINT64:  tsfw.Uint64,
	abi.ACL_BF16:    tsfw.BFloat16,
	abi.ACL_FLOAT16: tsfw.Float16,
	abi.ACL_FLOAT:   tsfw.Float32,
}

// param converts one aclrtRandomParaInfo; a parameter in device memory is
// checked now and read when the task runs.
// params reads the paramInfo union of aclrtRandomNumFuncParaInfo as the
// two aclrtRandomParaInfo it starts with: the dropout ratio, uniform min
// and max, or normal mean and stddev.
func (p *RandomNumFuncParaInfo) params() [2]RandomParaInfo {
	var out [2]RandomParaInfo
	for i := range out {
		b := p.ParamInfo[16*i : 16*(i+1)]
		out[i].IsAddr, out[i].Size = b[0], b[9]
		copy(out[i].ValueOrAddr[:], b[1:9])
		copy(out[i].Rsv[:], b[10:16])
	}
	return out
}

func (p *RandomParaInfo) param(fn, what string, s *core.Stream) (tsfw.RandomParam, error) {
	if p.Size == 0 || p.Size > 8 {
		return tsfw.RandomParam{}, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s: size %d: want 1..8 bytes", fn, what, p.Size)
	}
	raw := binary.LittleEndian.Uint64(p.ValueOrAddr[:])
	switch p.IsAddr {
	case 0:
		return tsfw.RandomParam{Value: raw, Size: p.Size}, nil
	case 1:
		if err := deviceOperand(fn, what, s, uintptr(raw), uint64(p.Size)); err != nil {
			return tsfw.RandomParam{}, err
		}
		return tsfw.RandomParam{Addr: uintptr(raw), Size: p.Size}, nil
	}
	return tsfw.RandomParam{}, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s: isAddr %d: want 0 or 1", fn, what, p.IsAddr)
}

// RandomNumAsync implements aclrtRandomNumAsync (Philox4x32-10; see
// tsfw/builtin_random.go for the conversions).
func RandomNumAsync(t *core.Thread, info *RandomNumTaskInfo, sh core.Handle, reserve uintptr) error {
	const fn = "aclrtRandomNumAsync"
	if info == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: taskInfo must not be NULL", fn)
	}
	if reserve != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: reserve must be NULL", fn)
	}
	dt, ok := randomTypes[info.DataType]
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: data type %d: want ACL_INT32, ACL_INT64, ACL_UINT32, ACL_UINT64, ACL_BF16, ACL_FLOAT16 or ACL_FLOAT", fn, info.DataType)
	}
	if info.RandomNumFuncParaInfo.FuncType < abi.ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK || info.RandomNumFuncParaInfo.FuncType > abi.ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: funcType %d: want 0..3 (aclrtRandomNumFuncType)", fn, info.RandomNumFuncParaInfo.FuncType)
	}
	dist := tsfw.RandomDist(info.RandomNumFuncParaInfo.FuncType) // same order as aclrtRandomNumFuncType
	if dist != tsfw.Uniform && !dt.IsFloat() {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: funcType %d needs a floating-point data type, got %d", fn, info.RandomNumFuncParaInfo.FuncType, info.DataType)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	spec := tsfw.RandomSpec{Dist: dist, DType: dt, Out: info.RandomResultAddr, Counter: info.RandomCounterAddr}
	if spec.Seed, err = info.RandomSeed.param(fn, "randomSeed", s); err != nil {
		return err
	}
	if spec.Count, err = info.RandomNum.param(fn, "randomNum", s); err != nil {
		return err
	}
	params := info.RandomNumFuncParaInfo.params()
	if spec.A, err = params[0].param(fn, "first distribution parameter", s); err != nil {
		return err
	}
	if dist != tsfw.DropoutBitmask {
		if spec.B, err = params[1].param(fn, "second distribution parameter", s); err != nil {
			return err
		}
	}
	if err := deviceOperand(fn, "randomCounterAddr", s, info.RandomCounterAddr, 16); err != nil {
		return err
	}
	out := uint64(1)
	if spec.Count.Addr == 0 {
		out = spec.OutBytes(spec.Count.Value)
	}
	if out > 0 {
		if err := deviceOperand(fn, "randomResultAddr", s, info.RandomResultAddr, out); err != nil {
			return err
		}
	}
	task, err := tsfw.RandomTask(spec)
	if err != nil {
		return abi.Wrapf(err, "%s", fn)
	}
	x := core.Queued{Counted: true}
	if core.Sanitizing {
		x.Acc = randomFootprint(info.RandomResultAddr, info.RandomCounterAddr, out, spec.Count.Addr != 0)
	}
	return s.Queue(t, fn, task, x)
}
