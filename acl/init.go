package acl

import (
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/emu"
)

// rt is the process-wide runtime state.
//
// Lock order: rt.mu is the outermost lock (level 0 of the one lock order,
// docs/internals.md "Lock order", checked by go test ./cmd/lockorder).
// Slow paths (init, device set/reset, context and stream
// create/destroy) hold rt.mu; hot paths (submission, copies) take no
// rt.mu: they resolve handles through the tables and read the node through
// an atomic pointer.
var rt = runtimeState{defaultDevice: -1}

type runtimeState struct {
	mu sync.Mutex // guards every field below except node

	initRefs   uint64 // aclInit reference count; 0 = not initialised
	initConfig []byte // content of the first aclInit's JSON (nil for none)

	errMsgProcess bool // "err_msg_mode": "1"

	devs []*device // by device id; nil until first used

	limits   map[int32]uint64 // aclrtDeviceSetLimit values (process-wide)
	sysOpts  map[int32]int64  // aclrtSetSysParamOpt values
	satMode  int32            // aclrtSetDeviceSatMode
	satIsSet bool

	// defaultDevice is the "defaultDevice" of aclInit's JSON, −1 if none.
	// Read without rt.mu by threads resolving their implicit context.
	defaultDevice int32

	node atomic.Pointer[emu.Node] // created lazily by theNode
}

var nodeMu sync.Mutex // serialises node creation; taken without rt.mu held or under it, never the reverse

// theNode returns the process's emulated node (emu.Current, shared with the
// HAL), created on first use: aclrtGetSocName and aclrtGetDeviceCount work
// before aclInit. rt.node caches it for the lock-free readers.
func theNode() (*emu.Node, error) {
	if n := rt.node.Load(); n != nil {
		return n, nil
	}
	nodeMu.Lock()
	defer nodeMu.Unlock()
	n, err := emu.Current()
	if err != nil {
		return nil, err
	}
	rt.node.Store(n)
	return n, nil
}

// Initialized reports whether aclInit has been called and not finalized.
func Initialized() bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.initRefs > 0
}

// ErrMsgProcessWide reports whether aclInit's JSON set "err_msg_mode": "1"
// (aclGetRecentErrMsg scoped to the process instead of the thread).
func ErrMsgProcessWide() bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.errMsgProcess
}

// Emulated versions: the ACL API version is the one the headers declare
// (ACL_MAJOR/MINOR/PATCH_VERSION); the CANN package version is npuemu's
// choice (docs/runtime.md).
const (
	CANNVersion = "8.5.0"
)
