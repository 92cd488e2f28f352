package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Device variables (aclrtGetSymbolAddress, aclrtGetSymbolSize,
// aclrtMemcpy{To,From}Symbol[Async]). The device variables of an npuemu
// kernel binary are the variables its host object exports, the ones
// aclrtBinaryGetGlobal finds: the kernels use them in place, so a
// variable's "device address" is its own address and its symbol is that
// same address, as the application sees it (through aclrtBinaryGetGlobal,
// or by linking the object). A symbol is resolved to a name by the
// process's dynamic loader (SymbolResolver, dladdr in libfake), then
// checked against the loaded binaries through KernelHost.Global, which also
// gives the size from the object's symbol table.
//
// Copies to and from a symbol are copies to and from device memory of the
// stream's (or current) device for the cost model and the kind check.

// resolveSymbol returns the address and size of the device variable
// symbol, checked against the SoC support list of fn.
func resolveSymbol(t *core.Thread, fn string, symbol uintptr) (*core.Context, uintptr, uint64, error) {
	if symbol == 0 {
		return nil, 0, 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: symbol must not be NULL", fn)
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return nil, 0, 0, err
	}
	resolve := platform().Symbols
	if resolve == nil {
		return nil, 0, 0, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: this build of npuemu cannot resolve symbols (only through libnpuemu.so)", fn)
	}
	name, start, ok := resolve(symbol)
	if !ok {
		return nil, 0, 0, abi.Errorf(abi.ACL_ERROR_RT_SYMBOL_NOT_FOUND, "%s: %#x is not the address of a variable exported by a loaded kernel binary", fn, symbol)
	}
	if start != symbol {
		return nil, 0, 0, abi.Errorf(abi.ACL_ERROR_RT_INVALID_SYMBOL, "%s: %#x lies %d bytes inside %s: a symbol is the variable's own address", fn, symbol, symbol-start, name)
	}
	for _, b := range loadedBinaries() {
		// Counted as a launch, so that an unload meanwhile does not close
		// the object under the lookup.
		if b.Acquire(fn) != nil {
			continue
		}
		addr, size, err := b.Host.Global(b.Lib, name)
		b.Release()
		if err == nil && addr == symbol {
			return c, addr, size, nil
		}
	}
	return nil, 0, 0, abi.Errorf(abi.ACL_ERROR_RT_SYMBOL_NOT_FOUND, "%s: %s (%#x) is not a variable of a loaded kernel binary", fn, name, symbol)
}

// loadedBinaries returns the live binaries: every binary has at least one
// kernel, so they are the binaries of the registered entry points.
func loadedBinaries() []*core.Binary {
	core.Entries.Mu.Lock()
	defer core.Entries.Mu.Unlock()
	seen := map[*core.Binary]bool{}
	var out []*core.Binary
	for _, list := range core.Entries.M {
		for _, f := range list {
			if !seen[f.Bin] && !f.Bin.Unloaded.Load() {
				seen[f.Bin] = true
				out = append(out, f.Bin)
			}
		}
	}
	return out
}

// GetSymbolAddress implements aclrtGetSymbolAddress: the variable is used
// in place, so its device address is the symbol itself.
func GetSymbolAddress(t *core.Thread, symbol uintptr, devPtr *uintptr) error {
	const fn = "aclrtGetSymbolAddress"
	if devPtr == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: devPtr must not be NULL", fn)
	}
	_, addr, _, err := resolveSymbol(t, fn, symbol)
	if err != nil {
		return err
	}
	*devPtr = addr
	return nil
}

// GetSymbolSize implements aclrtGetSymbolSize: the size of the variable in
// the object's symbol table.
func GetSymbolSize(t *core.Thread, symbol uintptr, size *uint64) error {
	const fn = "aclrtGetSymbolSize"
	if size == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be NULL", fn)
	}
	_, _, n, err := resolveSymbol(t, fn, symbol)
	if err != nil {
		return err
	}
	*size = n
	return nil
}

// symbolCopy is one copy to or from a device variable.
type symbolCopy struct {
	fn       string
	toSymbol bool
	other    uintptr // the host or device operand
	count    uint64
	offset   uint64
	kind     int32
	dstMax   uint64 // from-symbol copies: room at other
}

// prepare validates c and returns the copy's destination, source,
// direction and the classification of the other operand. done reports a
// zero-length copy.
func (c symbolCopy) prepare(t *core.Thread, symbol uintptr) (ctx *core.Context, dst, src uintptr, dir tsfw.CopyDir, oi core.PtrInfo, done bool, err error) {
	fn := c.fn
	if c.count == 0 {
		return nil, 0, 0, 0, oi, true, nil
	}
	want := abi.ACL_MEMCPY_HOST_TO_DEVICE
	if !c.toSymbol {
		want = abi.ACL_MEMCPY_DEVICE_TO_HOST
	}
	if c.kind != int32(want) && c.kind != abi.ACL_MEMCPY_DEVICE_TO_DEVICE && c.kind != abi.ACL_MEMCPY_DEFAULT {
		return nil, 0, 0, 0, oi, false, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM,
			"%s: kind %d: want ACL_MEMCPY_%s (%d), ACL_MEMCPY_DEVICE_TO_DEVICE (%d) or ACL_MEMCPY_DEFAULT (%d)",
			fn, c.kind, map[bool]string{true: "HOST_TO_DEVICE", false: "DEVICE_TO_HOST"}[c.toSymbol], want, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, abi.ACL_MEMCPY_DEFAULT)
	}
	if c.other == 0 {
		return nil, 0, 0, 0, oi, false, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s must not be NULL", fn, map[bool]string{true: "src", false: "dst"}[c.toSymbol])
	}
	if !c.toSymbol && c.count > c.dstMax {
		return nil, 0, 0, 0, oi, false, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: count %d exceeds dstMax %d", fn, c.count, c.dstMax)
	}
	ctx, addr, size, err := resolveSymbol(t, fn, symbol)
	if err != nil {
		return nil, 0, 0, 0, oi, false, err
	}
	if c.offset > size || c.count > size-c.offset {
		return nil, 0, 0, 0, oi, false, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID,
			"%s: %d bytes at offset %d overrun the %d-byte variable", fn, c.count, c.offset, size)
	}
	what := map[bool]string{true: "src", false: "dst"}[c.toSymbol]
	oi, err = core.Classify(fn, what, c.other)
	if err != nil {
		return nil, 0, 0, 0, oi, false, err
	}
	if err := core.CheckRoom(fn, what, c.other, oi, c.count); err != nil {
		return nil, 0, 0, 0, oi, false, err
	}
	if oi.Class == core.Managedmem {
		return nil, 0, 0, 0, oi, false, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s %#x is managed memory: copy it through aclrtMemcpy", fn, what, c.other)
	}
	dev := oi.Class == core.Devmem
	if (c.kind == abi.ACL_MEMCPY_DEVICE_TO_DEVICE && !dev) || (c.kind == int32(want) && dev) {
		return nil, 0, 0, 0, oi, false, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: kind %d does not match %s (%s)", fn, c.kind, what, oi.Class)
	}
	sym := addr + uintptr(c.offset)
	switch {
	case dev:
		dir = tsfw.DeviceToDevice
	case c.toSymbol:
		dir = tsfw.HostToDevice
	default:
		dir = tsfw.DeviceToHost
	}
	if c.toSymbol {
		return ctx, sym, c.other, dir, oi, false, nil
	}
	return ctx, c.other, sym, dir, oi, false, nil
}

// MemcpyToSymbol implements aclrtMemcpyToSymbol: count bytes from src to
// the variable at offset, synchronously.
func MemcpyToSymbol(t *core.Thread, symbol, src uintptr, count, offset uint64, kind int32) error {
	return symbolCopy{fn: "aclrtMemcpyToSymbol", toSymbol: true, other: src, count: count, offset: offset, kind: kind}.now(t, symbol)
}

// MemcpyFromSymbol implements aclrtMemcpyFromSymbol: count bytes of the
// variable from offset to dst, synchronously.
func MemcpyFromSymbol(t *core.Thread, dst uintptr, dstMax uint64, symbol uintptr, count, offset uint64, kind int32) error {
	return symbolCopy{fn: "aclrtMemcpyFromSymbol", other: dst, dstMax: dstMax, count: count, offset: offset, kind: kind}.now(t, symbol)
}

func (c symbolCopy) now(t *core.Thread, symbol uintptr) error {
	if err := core.UnsafeGuard(t, c.fn); err != nil {
		return err
	}
	ctx, dst, src, dir, oi, done, err := c.prepare(t, symbol)
	if done || err != nil {
		return err
	}
	d := ctx.Dev
	if oi.Class == core.Devmem {
		d = oi.Dev
	}
	if err := d.Emu.TS.CopyNow(dst, src, c.count, dir); err != nil {
		return abi.Wrapf(err, "%s", c.fn)
	}
	return nil
}

// MemcpyToSymbolAsync implements aclrtMemcpyToSymbolAsync: the copy is a
// task of the stream, like aclrtMemcpyAsync (pageable host memory makes
// the call wait for it).
func MemcpyToSymbolAsync(t *core.Thread, symbol, src uintptr, count, offset uint64, kind int32, sh core.Handle) error {
	return symbolCopy{fn: "aclrtMemcpyToSymbolAsync", toSymbol: true, other: src, count: count, offset: offset, kind: kind}.async(t, symbol, sh)
}

// MemcpyFromSymbolAsync implements aclrtMemcpyFromSymbolAsync.
func MemcpyFromSymbolAsync(t *core.Thread, dst uintptr, dstMax uint64, symbol uintptr, count, offset uint64, kind int32, sh core.Handle) error {
	return symbolCopy{fn: "aclrtMemcpyFromSymbolAsync", other: dst, dstMax: dstMax, count: count, offset: offset, kind: kind}.async(t, symbol, sh)
}

func (c symbolCopy) async(t *core.Thread, symbol uintptr, sh core.Handle) error {
	s, err := core.ResolveStream(t, c.fn, sh)
	if err != nil {
		return err
	}
	_, dst, src, dir, oi, done, err := c.prepare(t, symbol)
	if done || err != nil {
		return err
	}
	if err := core.SameDevice(c.fn, s, oi); err != nil {
		return err
	}
	if err := s.SubmitTask(t, c.fn, tsfw.CopyTask(dst, src, c.count, dir)); err != nil {
		return err
	}
	if oi.Class == core.Pageable {
		return core.WaitPageable(s, c.fn)
	}
	return nil
}
