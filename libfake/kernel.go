package main

/*
#include <stdlib.h>
#include <string.h>
#include "acl/acl.h"
#include "npu.h"
#include "kernel_host.h"
*/
import "C"

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"syscall"
	"unsafe"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of the kernel family (acl/kernel.go, acl/args.go) and the
// KernelHost that loads binaries and runs blocks (kernel_host.c).

// cHost implements acl.KernelHost with kernel_host.c.
type cHost struct{}

// maxKernels bounds the table a binary may declare, so that a corrupt
// table is refused instead of read far out of bounds.
const maxKernels = 1 << 16

// minEntrySize is the size of npuemu_kernel_entry in ABI version 1 as it
// first shipped; fields added since (param_sizes) are read only from
// tables whose entry_size includes them.
const minEntrySize = C.NPU_KENTRY_V1_SIZE

// Sizes of the entry up to and including param_sizes, and flags.
const (
	entryWithParams = C.NPU_KENTRY_V1_SIZE + C.sizeof_uintptr_t
	entryWithFlags  = C.NPU_KENTRY_FLAGS_END
)

// maxParamSize bounds one declared parameter (a struct passed by value).
const maxParamSize = 1 << 16

func readTable(tab *C.npuemu_kernel_table_t) ([]core.KernelEntry, error) {
	switch {
	case tab.magic != C.NPUEMU_KERNEL_MAGIC:
		return nil, fmt.Errorf("npuemu_kernel_table has magic %#x, want %#x", uint32(tab.magic), uint32(C.NPUEMU_KERNEL_MAGIC))
	case tab.abi_version != C.NPUEMU_KERNEL_ABI_VERSION:
		return nil, fmt.Errorf("kernel ABI version %d, this npuemu supports %d", uint32(tab.abi_version), uint32(C.NPUEMU_KERNEL_ABI_VERSION))
	case tab.count == 0 || tab.count > maxKernels:
		return nil, fmt.Errorf("kernel table lists %d kernels (want 1..%d)", uint32(tab.count), maxKernels)
	case tab.entry_size < minEntrySize:
		return nil, fmt.Errorf("kernel table entries of %d bytes, want at least %d", uint32(tab.entry_size), minEntrySize)
	case tab.entries == nil:
		return nil, fmt.Errorf("kernel table has no entries")
	}
	out := make([]core.KernelEntry, 0, int(tab.count))
	seen := map[string]bool{}
	for i := range uintptr(tab.count) {
		e := (*C.npuemu_kernel_entry)(unsafe.Add(unsafe.Pointer(tab.entries), i*uintptr(tab.entry_size)))
		if e.name == nil || e.fn == nil {
			return nil, fmt.Errorf("kernel table entry %d has no name or no function", i)
		}
		name := C.GoString(e.name)
		if seen[name] {
			return nil, fmt.Errorf("kernel table lists %q twice", name)
		}
		seen[name] = true
		if e.kind > C.NPUEMU_MIX {
			return nil, fmt.Errorf("kernel %s: kind %d is none of NPUEMU_AICORE/CUBE/VECTOR/MIX", name, uint32(e.kind))
		}
		if f := float64(e.ns_per_unit); f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("kernel %s: ns_per_unit %v is not a finite non-negative cost", name, f)
		}
		ke := core.KernelEntry{
			Name: name, Fn: uintptr(unsafe.Pointer(e.fn)), Kind: uint32(e.kind),
			MixCube: uint16(e.mix_cube), MixVector: uint16(e.mix_vector),
			NsPerBlock: uint64(e.ns_per_block), NsPerUnit: float64(e.ns_per_unit),
			SizeOffset: uint32(e.size_offset), NumParams: uint32(e.num_params),
		}
		if uintptr(tab.entry_size) >= entryWithFlags {
			ke.Flags = uint32(e.flags)
		}
		if uintptr(tab.entry_size) >= entryWithParams && e.param_sizes != nil && ke.NumParams > 0 {
			if ke.NumParams > core.MaxKernelParams {
				return nil, fmt.Errorf("kernel %s: num_params %d exceeds %d", name, ke.NumParams, core.MaxKernelParams)
			}
			sizes := unsafe.Slice((*uint32)(unsafe.Pointer(e.param_sizes)), int(ke.NumParams))
			for j, n := range sizes {
				if n == 0 || n > maxParamSize {
					return nil, fmt.Errorf("kernel %s: param_sizes[%d] is %d bytes (want 1..%d)", name, j, n, maxParamSize)
				}
			}
			ke.ParamSizes = append([]uint32(nil), sizes...)
		}
		out = append(out, ke)
	}
	return out, nil
}

const errLen = 512

func (cHost) open(load func(tab **C.npuemu_kernel_table_t, err *C.char) unsafe.Pointer, elfOf func() (*elf.File, error)) (uintptr, []core.KernelEntry, error) {
	var tab *C.npuemu_kernel_table_t
	msg := (*C.char)(C.calloc(errLen, 1))
	defer C.free(unsafe.Pointer(msg))
	lib := load(&tab, msg)
	if lib == nil {
		return 0, nil, fmt.Errorf("%s", C.GoString(msg))
	}
	entries, err := readTable(tab)
	if err != nil {
		C.npu_kclose(lib)
		return 0, nil, err
	}
	if src, err := elfOf(); err == nil {
		codeSizes(src, entries)
		src.Close()
	}
	return uintptr(lib), entries, nil
}

// codeSizes fills in the entries' code sizes from the object's symbol
// tables: the function symbol whose value is the entry's offset from the
// object's load address. A stripped object leaves them 0.
func codeSizes(f *elf.File, entries []core.KernelEntry) {
	if len(entries) == 0 {
		return
	}
	base := uintptr(C.npu_kbase(C.uintptr_t(entries[0].Fn)))
	if base == 0 {
		return
	}
	size := map[uint64]uint64{}
	for _, read := range []func() ([]elf.Symbol, error){f.Symbols, f.DynamicSymbols} {
		syms, _ := read()
		for _, sym := range syms {
			if elf.ST_TYPE(sym.Info) == elf.STT_FUNC && sym.Size > 0 {
				size[sym.Value] = sym.Size
			}
		}
	}
	for i := range entries {
		entries[i].CodeSize = size[uint64(entries[i].Fn-base)]
	}
}

func (h cHost) Open(path string) (uintptr, []core.KernelEntry, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	return h.open(func(tab **C.npuemu_kernel_table_t, msg *C.char) unsafe.Pointer {
		return C.npu_kopen(cpath, tab, msg, errLen)
	}, func() (*elf.File, error) { return elf.Open(path) })
}

func (h cHost) Load(data []byte) (uintptr, []core.KernelEntry, error) {
	// C memory: the write happens in C.
	p := C.CBytes(data)
	defer C.free(p)
	return h.open(func(tab **C.npuemu_kernel_table_t, msg *C.char) unsafe.Pointer {
		return C.npu_kopen_data(p, C.size_t(len(data)), tab, msg, errLen)
	}, func() (*elf.File, error) { return elf.NewFile(bytes.NewReader(data)) })
}

// Close takes the handle dlopen returned; it is C memory, so it is
// reinterpreted through memory rather than converted from a uintptr.
func (cHost) Close(lib uintptr) { C.npu_kclose(*(*unsafe.Pointer)(unsafe.Pointer(&lib))) }

func (cHost) Global(lib uintptr, name string) (uintptr, uint64, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	msg := (*C.char)(C.calloc(errLen, 1))
	defer C.free(unsafe.Pointer(msg))
	var size C.uint64_t
	addr := C.npu_kglobal(*(*unsafe.Pointer)(unsafe.Pointer(&lib)), cname, &size, msg, errLen)
	if addr == 0 {
		return 0, 0, fmt.Errorf("%s", C.GoString(msg))
	}
	return uintptr(addr), uint64(size), nil
}

func (cHost) Alloc(n int) ([]byte, uintptr) {
	p := C.calloc(C.size_t(max(n, 1)), 1)
	if p == nil {
		panic("npuemu: out of host memory for kernel arguments")
	}
	return unsafe.Slice((*byte)(p), max(n, 1))[:n], uintptr(p)
}

func (cHost) Free(b []byte) {
	if cap(b) > 0 {
		C.free(unsafe.Pointer(unsafe.SliceData(b[:1])))
	}
}

func kstate(state []byte) *C.npu_kstate {
	return (*C.npu_kstate)(unsafe.Pointer(unsafe.SliceData(state)))
}

func (cHost) Run(fn, args uintptr, size uint64, block, blocks uint32, state []byte) error {
	st := kstate(state)
	res := C.npu_krun_r(C.uintptr_t(fn), C.uintptr_t(args), C.uint64_t(size), C.uint32_t(block), C.uint32_t(blocks), st)
	return krunErr(int64(res.r), res.msg, uint64(st.fault_addr))
}

// RunOnes implements emu.BatchKernelHost with one call of npu_krun_n: jobs
// go to C as they are (npu_kjob is emu.KernelJob's layout: four 8-byte
// words in the same order, sizes checked below; no Go pointer in it).
func (cHost) RunOnes(jobs []emu.KernelJob) (int, error) {
	if len(jobs) == 0 {
		return 0, nil
	}
	res := C.npu_krun_n((*C.npu_kjob)(unsafe.Pointer(unsafe.SliceData(jobs))), C.int(len(jobs)))
	n := min(max(int(res.n), 1), len(jobs))
	return n, krunErr(int64(res.r), res.msg, uint64(res.fault_addr))
}

// The sizes of npu_kjob and emu.KernelJob are equal (each constant below
// is negative, a compile error, where they are not).
var (
	_ [unsafe.Sizeof(emu.KernelJob{}) - C.sizeof_npu_kjob]byte
	_ [C.sizeof_npu_kjob - unsafe.Sizeof(emu.KernelJob{})]byte
)

// krunErr is the error of npu_krun's result r (message msg, freed here;
// the fault address from the launch's state).
func krunErr(r int64, msg *C.char, faultAddr uint64) error {
	switch r >> 32 {
	case C.NPU_KRUN_OK:
		return nil
	case C.NPU_KRUN_FAULT:
		text := "(no message)"
		if msg != nil {
			text = C.GoString(msg)
			C.free(unsafe.Pointer(msg))
		}
		return abi.Errorf(abi.ACL_ERROR_RT_AICORE_EXCEPTION, "AI Core exception: %s", text)
	case C.NPU_KRUN_SIGNAL:
		sig := syscall.Signal(int32(r))
		addr := faultAddr
		if where := core.DescribeDeviceAddr(uintptr(addr)); where != "" { // device memory protection (acl/memprotect.go)
			return core.KernelMemoryFault(uintptr(addr), abi.Errorf(abi.ACL_ERROR_RT_AICORE_EXCEPTION, "AI Core exception: %v (%s) at address %#x: %s", sig, unix(sig), addr, where))
		}
		return abi.Errorf(abi.ACL_ERROR_RT_AICORE_EXCEPTION, "AI Core exception: %v (%s) at address %#x", sig, unix(sig), addr)
	default:
		return abi.Errorf(abi.ACL_ERROR_RT_AICORE_EXCEPTION, "AI Core exception: npuemu_trap with code %d", int32(r))
	}
}

func unix(s syscall.Signal) string {
	switch s {
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGBUS:
		return "SIGBUS"
	case syscall.SIGILL:
		return "SIGILL"
	case syscall.SIGFPE:
		return "SIGFPE"
	}
	return fmt.Sprintf("signal %d", int(s))
}

// Flush skips the C call when the launch printed nothing and did not
// fault: the common case, on the path of every launch.
func (cHost) Flush(state []byte) {
	if st := kstate(state); st.print != 0 || st.fault_addr != 0 || st.shared != 0 {
		C.npu_kflush(st)
	}
}

// cstr reads an optional C string ("" for NULL).
func cstr(p *C.char) string {
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

func loadOptions(o *C.aclrtBinaryLoadOptions) []core.BinaryLoadOption {
	if o == nil || o.options == nil || o.numOpt == 0 {
		return nil
	}
	n := min(int(o.numOpt), 64)
	raw := unsafe.Slice((*byte)(unsafe.Pointer(o.options)), n*C.sizeof_aclrtBinaryLoadOption)
	out := make([]core.BinaryLoadOption, n)
	for i := range out {
		rec := raw[i*C.sizeof_aclrtBinaryLoadOption:]
		out[i] = core.BinaryLoadOption{Type: int32(binary.LittleEndian.Uint32(rec[0:4])), Value: binary.LittleEndian.Uint32(rec[4:8])}
	}
	return out
}

//export npu_aclrtBinaryLoadFromFile
func npu_aclrtBinaryLoadFromFile(t *C.npu_thread, binPath *C.char, options *C.aclrtBinaryLoadOptions, binHandle *C.aclrtBinHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.BinaryLoadFromFile(th, cstr(binPath), loadOptions(options), handleOut(unsafe.Pointer(binHandle))))
}

//export npu_aclrtBinaryLoadFromData
func npu_aclrtBinaryLoadFromData(t *C.npu_thread, data unsafe.Pointer, length C.size_t, options *C.aclrtBinaryLoadOptions, binHandle *C.aclrtBinHandle) C.aclError {
	th := thread(t)
	var b []byte
	if data != nil && length > 0 {
		b = callerSlice[byte]("length", data, uint64(length))
	}
	return ret(th, acl.BinaryLoadFromData(th, b, loadOptions(options), handleOut(unsafe.Pointer(binHandle))))
}

//export npu_aclrtBinaryUnLoad
func npu_aclrtBinaryUnLoad(t *C.npu_thread, binHandle C.aclrtBinHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.BinaryUnLoad(th, handle(unsafe.Pointer(binHandle))))
}

//export npu_aclrtBinaryGetFunction
func npu_aclrtBinaryGetFunction(t *C.npu_thread, binHandle C.aclrtBinHandle, kernelName *C.char, funcHandle *C.aclrtFuncHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.BinaryGetFunction(th, handle(unsafe.Pointer(binHandle)), cstr(kernelName), handleOut(unsafe.Pointer(funcHandle))))
}

//export npu_aclrtFunctionGetBinary
func npu_aclrtFunctionGetBinary(t *C.npu_thread, funcHandle C.aclrtFuncHandle, binHandle *C.aclrtBinHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.FunctionGetBinary(th, handle(unsafe.Pointer(funcHandle)), handleOut(unsafe.Pointer(binHandle))))
}

//export npu_aclrtGetFunctionName
func npu_aclrtGetFunctionName(t *C.npu_thread, funcHandle C.aclrtFuncHandle, maxLen C.uint32_t, name *C.char) C.aclError {
	th := thread(t)
	if name == nil || maxLen == 0 {
		return ret(th, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetFunctionName: name must not be NULL and maxLen must be > 0"))
	}
	s, err := acl.FunctionName(th, handle(unsafe.Pointer(funcHandle)))
	if err != nil {
		return ret(th, err)
	}
	if len(s)+1 > int(maxLen) {
		return ret(th, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetFunctionName: the name %q needs %d bytes, maxLen is %d", s, len(s)+1, uint32(maxLen)))
	}
	out := unsafe.Slice((*byte)(unsafe.Pointer(name)), len(s)+1)
	copy(out, s)
	out[len(s)] = 0
	return 0
}

//export npu_aclrtGetFunctionAddr
func npu_aclrtGetFunctionAddr(t *C.npu_thread, funcHandle C.aclrtFuncHandle, aicAddr, aivAddr *unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.GetFunctionAddr(th, handle(unsafe.Pointer(funcHandle)), addrOut(aicAddr), addrOut(aivAddr)))
}

//export npu_aclrtGetFunctionAttribute
func npu_aclrtGetFunctionAttribute(t *C.npu_thread, funcHandle C.aclrtFuncHandle, attrType C.aclrtFuncAttribute, attrValue *C.int64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetFunctionAttribute(th, handle(unsafe.Pointer(funcHandle)), int32(attrType), (*int64)(unsafe.Pointer(attrValue))))
}

// argsHandle resolves an aclrtArgsHandle: a runtime handle (tagged), or
// caller memory that aclrtKernelArgsInitByUserMem initialised, found by
// its address in userArgs. The caller's memory is never read to resolve a
// handle, so a garbage pointer is answered as "not a handle" (never a
// dereference).
func argsHandle(p C.aclrtArgsHandle) core.Handle {
	h := core.Handle(uintptr(unsafe.Pointer(p)))
	if uintptr(h)>>56 != 0 || p == nil {
		return h // a runtime handle (tagged), or NULL
	}
	if v, ok := userArgs.Load(uintptr(unsafe.Pointer(p))); ok {
		return v.(core.Handle)
	}
	return h // resolves to "not a handle"
}

// userArgs maps the address of caller memory initialised by
// aclrtKernelArgsInitByUserMem to its runtime handle (stale once the args
// are finalised, like any handle).
var userArgs sync.Map

//export npu_aclrtKernelArgsInit
func npu_aclrtKernelArgsInit(t *C.npu_thread, funcHandle C.aclrtFuncHandle, argsHandle *C.aclrtArgsHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.KernelArgsInit(th, handle(unsafe.Pointer(funcHandle)), handleOut(unsafe.Pointer(argsHandle))))
}

//export npu_aclrtKernelArgsInitByUserMem
func npu_aclrtKernelArgsInitByUserMem(t *C.npu_thread, funcHandle C.aclrtFuncHandle, argsHandle C.aclrtArgsHandle, userHostMem unsafe.Pointer, actualArgsSize C.size_t) C.aclError {
	th := thread(t)
	if argsHandle == nil {
		return ret(th, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtKernelArgsInitByUserMem: argsHandle must not be NULL (memory of aclrtKernelArgsGetHandleMemSize bytes)"))
	}
	if uintptr(unsafe.Pointer(argsHandle))>>56 != 0 {
		return ret(th, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtKernelArgsInitByUserMem: argsHandle %p is a runtime handle; it must be caller memory of aclrtKernelArgsGetHandleMemSize bytes", unsafe.Pointer(argsHandle)))
	}
	var mem []byte
	if userHostMem != nil && actualArgsSize > 0 {
		mem = callerSlice[byte]("actualArgsSize", userHostMem, uint64(actualArgsSize))
	}
	h, err := acl.KernelArgsInitByUserMem(th, handle(unsafe.Pointer(funcHandle)), mem)
	if err != nil {
		return ret(th, err)
	}
	m := (*[2]uint64)(unsafe.Pointer(argsHandle))
	m[0], m[1] = core.ArgsUserMagic, uint64(h)
	userArgs.Store(uintptr(unsafe.Pointer(argsHandle)), h)
	return 0
}

//export npu_aclrtKernelArgsGetHandleMemSize
func npu_aclrtKernelArgsGetHandleMemSize(t *C.npu_thread, funcHandle C.aclrtFuncHandle, memSize *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.KernelArgsGetHandleMemSize(th, handle(unsafe.Pointer(funcHandle)), (*uint64)(unsafe.Pointer(memSize))))
}

//export npu_aclrtKernelArgsGetMemSize
func npu_aclrtKernelArgsGetMemSize(t *C.npu_thread, funcHandle C.aclrtFuncHandle, userArgsSize C.size_t, actualArgsSize *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.KernelArgsGetMemSize(th, handle(unsafe.Pointer(funcHandle)), uint64(userArgsSize), (*uint64)(unsafe.Pointer(actualArgsSize))))
}

func hostBytes(p unsafe.Pointer, n C.size_t) []byte {
	if p == nil || n == 0 {
		return nil
	}
	return callerSlice[byte]("size", p, uint64(n))
}

//export npu_aclrtKernelArgsAppend
func npu_aclrtKernelArgsAppend(t *C.npu_thread, args C.aclrtArgsHandle, param unsafe.Pointer, paramSize C.size_t, paramHandle *C.aclrtParamHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.KernelArgsAppend(th, argsHandle(args), hostBytes(param, paramSize), handleOut(unsafe.Pointer(paramHandle))))
}

//export npu_aclrtKernelArgsAppendPlaceHolder
func npu_aclrtKernelArgsAppendPlaceHolder(t *C.npu_thread, args C.aclrtArgsHandle, paramHandle *C.aclrtParamHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.KernelArgsAppendPlaceHolder(th, argsHandle(args), handleOut(unsafe.Pointer(paramHandle))))
}

//export npu_aclrtKernelArgsGetPlaceHolderBuffer
func npu_aclrtKernelArgsGetPlaceHolderBuffer(t *C.npu_thread, args C.aclrtArgsHandle, paramHandle C.aclrtParamHandle, dataSize C.size_t, bufferAddr *unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.KernelArgsGetPlaceHolderBuffer(th, argsHandle(args), handle(unsafe.Pointer(paramHandle)), uint64(dataSize), addrOut(bufferAddr)))
}

//export npu_aclrtKernelArgsParaUpdate
func npu_aclrtKernelArgsParaUpdate(t *C.npu_thread, args C.aclrtArgsHandle, paramHandle C.aclrtParamHandle, param unsafe.Pointer, paramSize C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.KernelArgsParaUpdate(th, argsHandle(args), handle(unsafe.Pointer(paramHandle)), hostBytes(param, paramSize)))
}

//export npu_aclrtKernelArgsFinalize
func npu_aclrtKernelArgsFinalize(t *C.npu_thread, args C.aclrtArgsHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.KernelArgsFinalize(th, argsHandle(args)))
}

// launchAttrs reads a launch config's attributes (20-byte records: the id,
// then the 16-byte value union). A small fixed array keeps the common
// case off the heap.
func launchAttrs(cfg *C.aclrtLaunchKernelCfg, buf *[4]core.LaunchAttr) []core.LaunchAttr {
	if cfg == nil || cfg.attrs == nil || cfg.numAttrs == 0 {
		return nil
	}
	n := min(int(cfg.numAttrs), 64)
	raw := unsafe.Slice((*byte)(unsafe.Pointer(cfg.attrs)), n*C.sizeof_aclrtLaunchKernelAttr)
	out := buf[:0]
	for i := range n {
		rec := raw[i*C.sizeof_aclrtLaunchKernelAttr:]
		a := core.LaunchAttr{ID: int32(binary.LittleEndian.Uint32(rec[0:4]))}
		copy(a.Value[:], rec[4:20])
		out = append(out, a)
	}
	return out
}

//export npu_aclrtLaunchKernelWithConfig
func npu_aclrtLaunchKernelWithConfig(t *C.npu_thread, funcHandle C.aclrtFuncHandle, numBlocks C.uint32_t, stream C.aclrtStream, cfg *C.aclrtLaunchKernelCfg, args C.aclrtArgsHandle, reserve unsafe.Pointer) C.aclError {
	th := thread(t)
	var buf [4]core.LaunchAttr
	return ret(th, acl.LaunchKernelWithConfig(th, handle(unsafe.Pointer(funcHandle)), uint32(numBlocks), handle(unsafe.Pointer(stream)), launchAttrs(cfg, &buf), argsHandle(args)))
}

//export npu_aclrtLaunchKernel
func npu_aclrtLaunchKernel(t *C.npu_thread, funcHandle C.aclrtFuncHandle, numBlocks C.uint32_t, argsData unsafe.Pointer, argsSize C.size_t, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.LaunchKernel(th, handle(unsafe.Pointer(funcHandle)), uint32(numBlocks), uintptr(argsData), uint64(argsSize), handle(unsafe.Pointer(stream))))
}
