// Package hal implements the semantics of the driver HAL (libascend_hal.so)
// over the same emu device model as ACL, with drvError_t results: device
// enumeration and information (device.go), plain memory (mem.go:
// halMemAlloc of MEM_DEV / MEM_HOST, copies, memset, address queries), SVM
// and UVM memory on the svm model (uvm.go), VMM (vmm.go), shared names and
// shareable handles within one process (shmem.go), host registration
// (hostreg.go), the 2-D copy (memcpy2d.go), the memory agents
// (memagent.go) and per-module memory usage (memusage.go,
// memusage_info.go). It has its own support table. It never imports libfake or
// "C".
//
// The node is the process's one emu.Current: memory allocated here is
// accounted in the same emu.HBM that aclrtGetMemInfo reads, and aclFinalize
// (emu.CloseCurrent) ends it. Each allocator frees only its own blocks:
// halMemFree refuses aclrtMalloc memory and aclrtFree refuses halMemAlloc
// memory. docs/hal.md records the decisions where the documentation is
// silent.
//
// Locks: mem.mu guards the halMemAlloc block map and is a leaf; the emu
// allocators lock themselves.
package hal
