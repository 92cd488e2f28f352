package core

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/emu"
)

// Runtime is the process-wide runtime state.
//
// Lock order: Runtime.Mu is the outermost lock (level 0 of the one lock order,
// docs/internals.md "Lock order", checked by go test ./cmd/lockorder).
// Slow paths (init, device set/reset, context and stream
// create/destroy) hold Runtime.Mu; hot paths (submission, copies) take no
// Runtime.Mu: they resolve handles through the tables and read the node through
// an atomic pointer.
var Runtime = runtimeState{DefaultDevice: -1}

type runtimeState struct {
	Mu sync.Mutex // guards every field below except node

	InitRefs   uint64 // aclInit reference count; 0 = not initialised
	InitConfig []byte // content of the first aclInit's JSON (nil for none)

	ErrMsgProcess bool // "err_msg_mode": "1"

	Devs []*Device // by device id; nil until first used

	Limits   map[int32]uint64 // aclrtDeviceSetLimit values (process-wide)
	SysOpts  map[int32]int64  // aclrtSetSysParamOpt values
	SatMode  int32            // aclrtSetDeviceSatMode
	SatIsSet bool

	// DefaultDevice is the "defaultDevice" of aclInit's JSON, −1 if none.
	// Read without Runtime.Mu by threads resolving their implicit context.
	DefaultDevice int32

	Node atomic.Pointer[emu.Node] // created lazily by theNode
}

var NodeMu sync.Mutex // serialises node creation; taken without Runtime.Mu held or under it, never the reverse

// TheNode returns the process's emulated node (emu.Current, shared with the
// HAL), created on first use: aclrtGetSocName and aclrtGetDeviceCount work
// before aclInit. rt.node caches it for the lock-free readers.
func TheNode() (*emu.Node, error) {
	if n := Runtime.Node.Load(); n != nil {
		return n, nil
	}
	NodeMu.Lock()
	defer NodeMu.Unlock()
	n, err := emu.Current()
	if err != nil {
		return nil, err
	}
	Runtime.Node.Store(n)
	return n, nil
}

// Initialized reports whether aclInit has been called and not finalized.
func Initialized() bool {
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	return Runtime.InitRefs > 0
}

// ErrMsgProcessWide reports whether aclInit's JSON set "err_msg_mode": "1"
// (aclGetRecentErrMsg scoped to the process instead of the thread).
func ErrMsgProcessWide() bool {
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	return Runtime.ErrMsgProcess
}

// Emulated versions: the ACL API version is the one the headers declare
// (ACL_MAJOR/MINOR/PATCH_VERSION); the CANN package version is npuemu's
// choice (docs/runtime.md).
const (
	CANNVersion = "8.5.0"
)

// PackageVersion is aclCANNPackageVersion's content.
type PackageVersion struct {
	Version, Major, Minor, Release, Patch string
}

// InitCallback is a registered aclInitCallbackFunc.
type InitCallback struct {
	Type int32
	Key  uintptr             // the C function pointer
	Call func(config []byte) // calls it with the aclInit JSON text and userData
}

// FinalizeCallback is a registered aclFinalizeCallbackFunc.
type FinalizeCallback struct {
	Type int32
	Key  uintptr
	Call func()
}

// LifeCBs holds the registrations in order. Its own mutex, not core.Runtime.Mu:
// callbacks run outside the runtime lock, so they may call ACL functions.
var LifeCBs struct {
	Mu       sync.Mutex
	Init     []InitCallback
	Finalize []FinalizeCallback
}

// RunInitCallbacks runs after a successful aclInit, outside core.Runtime.Mu. Their
// return codes are ignored: the runtime documents no effect for them.
func RunInitCallbacks(config []byte) {
	LifeCBs.Mu.Lock()
	cbs := slices.Clone(LifeCBs.Init)
	LifeCBs.Mu.Unlock()
	for _, c := range cbs {
		c.Call(config)
	}
}

// RunFinalizeCallbacks runs at the start of aclFinalize, outside core.Runtime.Mu,
// while the runtime is still usable.
func RunFinalizeCallbacks() {
	LifeCBs.Mu.Lock()
	cbs := slices.Clone(LifeCBs.Finalize)
	LifeCBs.Mu.Unlock()
	for _, c := range cbs {
		c.Call()
	}
}
