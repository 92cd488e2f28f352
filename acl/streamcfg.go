package acl

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// Stream config handles (aclrtCreateStreamConfigHandle & co.). The vendor
// documentation lists no product for this API, so the real runtime may
// refuse it; npuemu implements it as a second spelling of
// aclrtCreateStreamWithConfig.

var streamCfgs struct {
	mu   sync.Mutex
	live map[*StreamConfig]struct{}
}

// AddStreamConfig records cfg (fresh, zeroed C memory) as a live handle.
func AddStreamConfig(cfg *StreamConfig) {
	streamCfgs.mu.Lock()
	defer streamCfgs.mu.Unlock()
	if streamCfgs.live == nil {
		streamCfgs.live = map[*StreamConfig]struct{}{}
	}
	*cfg = StreamConfig{}
	streamCfgs.live[cfg] = struct{}{}
}

func checkStreamConfig(fn string, cfg *StreamConfig) error {
	if cfg == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: handle must not be NULL", fn)
	}
	streamCfgs.mu.Lock()
	defer streamCfgs.mu.Unlock()
	if _, ok := streamCfgs.live[cfg]; !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %p is not a live stream config handle (aclrtCreateStreamConfigHandle)", fn, cfg)
	}
	return nil
}

// DestroyStreamConfig implements aclrtDestroyStreamConfigHandle; on success
// the caller frees cfg's memory.
func DestroyStreamConfig(t *core.Thread, cfg *StreamConfig) error {
	if err := checkStreamConfig("aclrtDestroyStreamConfigHandle", cfg); err != nil {
		return err
	}
	streamCfgs.mu.Lock()
	defer streamCfgs.mu.Unlock()
	delete(streamCfgs.live, cfg)
	return nil
}

// SetStreamConfigOpt implements aclrtSetStreamConfigOpt. value is the
// attribute read from attrValue as an integer of size bytes (4 or 8; any
// other size is refused); haveValue is false for a NULL attrValue.
func SetStreamConfigOpt(t *core.Thread, cfg *StreamConfig, attr int32, value uint64, haveValue bool, size uint64) error {
	const fn = "aclrtSetStreamConfigOpt"
	if err := checkStreamConfig(fn, cfg); err != nil {
		return err
	}
	if !haveValue {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attrValue must not be NULL", fn)
	}
	want := []uint64{4, 8}
	if attr == abi.ACL_RT_STREAM_WORK_ADDR_PTR {
		want = []uint64{8}
	}
	if size != want[0] && size != want[len(want)-1] {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attribute %d: valueSize %d: want %v", fn, attr, size, want)
	}
	streamCfgs.mu.Lock()
	defer streamCfgs.mu.Unlock()
	switch attr {
	case abi.ACL_RT_STREAM_WORK_ADDR_PTR:
		cfg.Workptr = uintptr(value)
	case abi.ACL_RT_STREAM_WORK_SIZE:
		cfg.WorkSize = value
	case abi.ACL_RT_STREAM_FLAG:
		cfg.Flag = value
	case abi.ACL_RT_STREAM_PRIORITY:
		if value > 7 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: priority %d: want 0..7 (0 = highest)", fn, value)
		}
		cfg.Priority = uint32(value)
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtStreamConfigAttr %d", fn, attr)
	}
	return nil
}

// CreateStreamV2 implements aclrtCreateStreamV2: a stream with the handle's
// priority and flags, as aclrtCreateStreamWithConfig creates it. The work
// area (WORK_ADDR_PTR/WORK_SIZE) is not needed by the emulated queues.
func CreateStreamV2(t *core.Thread, out *core.Handle, cfg *StreamConfig) error {
	const fn = "aclrtCreateStreamV2"
	if err := checkStreamConfig(fn, cfg); err != nil {
		return err
	}
	streamCfgs.mu.Lock()
	p, f := cfg.Priority, cfg.Flag
	streamCfgs.mu.Unlock()
	if f > 0xFFFFFFFF {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag %#x does not fit the 32-bit stream flags", fn, f)
	}
	return core.CreateStream(t, fn, out, core.ClampPriority(p), uint32(f))
}
