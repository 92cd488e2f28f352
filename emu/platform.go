package emu

import "sync/atomic"

// Platform holds the pieces of the host platform that only the C part of
// the library (libfake) can provide. A node is given its Platform when it is
// created (NewNode) and keeps it for its life: the packages that drive the
// node read the pieces from it (Node.Platform) instead of from process-wide
// setters, and a Go test passes fakes through the same value. A nil piece
// is absent: the calls that need it fail with a clear message.
type Platform struct {
	// Kernels loads kernel binaries and runs their blocks (acl).
	Kernels KernelHost
	// Symbols names the exported variable at an address, through the
	// dynamic loader (acl: device variables).
	Symbols SymbolResolver
	// HostFaults is the SIGSEGV half of the mprotect mode of managed
	// memory (svm.go).
	HostFaults HostFaults
	// PKey returns the protection key a device's memory is given when it
	// is created (hbm_pkey.go), -1 for none: the front allocated it and
	// keeps host threads' access to it to calls into the library.
	PKey func() int
}

// Platform returns the platform the node was created with.
func (n *Node) Platform() Platform { return n.plat }

// processPlatform is what the process's node (Current) is created with.
var processPlatform atomic.Pointer[Platform]

// UsePlatform sets the platform the process's node is created with from
// now on: libfake calls it once, when the library loads, before any node
// exists; a Go test calls it with its fakes before the node it wants them
// in is created (a node already created keeps its own). It is the one
// entry point of the platform, because the process's node is created
// lazily, by whichever of acl and hal asks first (Current).
func UsePlatform(p Platform) { processPlatform.Store(&p) }

// ProcessPlatform returns the platform the next process node gets.
func ProcessPlatform() Platform {
	if p := processPlatform.Load(); p != nil {
		return *p
	}
	return Platform{}
}

// SymbolResolver names the symbol at addr: start is the address of the
// symbol that contains addr; ok is false when no loaded object exports a
// symbol there.
type SymbolResolver func(addr uintptr) (name string, start uintptr, ok bool)

// KernelEntry is one kernel of a loaded binary's table.
type KernelEntry struct {
	Name       string
	Fn         uintptr // entry point (npuemu_kernel_fn)
	Kind       uint32  // aclrtKernelType value: 0 AI Core, 1 cube, 2 vector, 3 mix
	MixCube    uint16  // mix ratio, cube part (0: 1)
	MixVector  uint16  // mix ratio, vector part (0: 2)
	NsPerBlock uint64
	NsPerUnit  float64
	SizeOffset uint32 // blob offset of the uint64 unit count (read when NsPerUnit > 0)
	NumParams  uint32
	// ParamSizes holds the byte size of each of the NumParams parameters
	// (npuemu_kernel_entry.param_sizes); nil means 8 bytes each.
	ParamSizes []uint32
	// CodeSize is the size of the entry point's code from the object's
	// symbol table, 0 when the object does not say (stripped).
	CodeSize uint64
	// Flags holds npuemu_kernel_entry.flags (KernelCooperative).
	Flags uint32
}

// KernelHost is the host side of kernel binaries (package acl loads and
// launches them through it), implemented by libfake (dlopen and the
// fault-guarded block runner in C) and by fakes in tests.
type KernelHost interface {
	// Open loads the kernel binary at path; Load loads one from memory.
	// The error says why the file is not a kernel binary.
	Open(path string) (lib uintptr, entries []KernelEntry, err error)
	Load(data []byte) (lib uintptr, entries []KernelEntry, err error)
	// Close unloads a binary; no block of it is running.
	Close(lib uintptr)
	// Global returns the address and size of the exported variable name of
	// a loaded binary.
	Global(lib uintptr, name string) (addr uintptr, size uint64, err error)
	// Alloc returns n bytes of zeroed host memory outside the Go heap and
	// its address; Free releases it.
	Alloc(n int) ([]byte, uintptr)
	Free(b []byte)
	// Run runs one block of the kernel at fn with the blob at args. state
	// is the launch's 16-byte scratch (host memory from Alloc, zeroed
	// before the first block). A fault or trap is an error.
	Run(fn, args uintptr, size uint64, block, blocks uint32, state []byte) error
	// Flush writes the launch's kernel output (npuemu_printf) and clears
	// state; called once after the last block.
	Flush(state []byte)
}

// BatchKernelHost is a KernelHost that runs the one block of several
// launches in one call (a chain of one-block kernels, tsfw chain.go:
// libfake's C runner, one crossing into C instead of one per kernel).
type BatchKernelHost interface {
	// RunOnes runs block 0 of 1 of each job, in order, as Run would, and
	// stops after the first that fails; it returns how many ran (at least
	// one) and the failing one's error.
	RunOnes(jobs []KernelJob) (int, error)
}

// KernelJob is one one-block launch of RunOnes: Run's arguments, the
// scratch by its address (host memory from Alloc). It holds no Go
// pointer, so a list of them can be handed to C as it is.
type KernelJob struct {
	Fn, Args uintptr
	Size     uint64
	State    uintptr
}
