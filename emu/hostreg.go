package emu

import (
	"sort"

	"github.com/npuemu/npuemu/abi"
)

// Host memory registration (halHostRegister, aclrtHostRegister): host memory
// the devices may read and write without a copy. The emulated devices run
// in this process and share its page tables, so registered memory needs no
// second mapping: the device address of registered memory is its host
// address. What registration changes is how the runtime classifies the
// memory: it is device-accessible, page-locked host memory (copies treat it
// as pinned, so asynchronous copies stay asynchronous).

// hostReg is one registered range.
type hostReg struct {
	base   uintptr
	size   uint64
	dev    int
	flags  uint32 // the caller's flag word, returned by queries
	mapped bool   // has a device address
}

// Registration is a registered host range as queries see it.
type Registration struct {
	Base   uintptr
	Size   uint64
	Dev    int
	Flags  uint32
	Mapped bool
}

// HostRegister registers [base, base+size) for device dev and returns the
// device address (the host address). base must be page aligned; the range
// must not overlap a registered one (DRV_ERROR_REPEATED_USERD).
func (v *VMM) HostRegister(base uintptr, size uint64, dev int, flags uint32, mapped bool) (uintptr, error) {
	switch {
	case base == 0:
		return 0, invalid("host address must not be NULL")
	case size == 0:
		return 0, invalid("size must not be 0")
	case uint64(base)%pageSize != 0:
		return 0, invalid("host address %#x is not aligned to the %d-byte page", base, pageSize)
	case uint64(base)+size < uint64(base):
		return 0, invalid("%d bytes at %#x wrap around the address space", size, base)
	}
	if _, err := v.device(dev); err != nil {
		return 0, err
	}
	if d, ok := v.node.FindDevice(base); ok {
		return 0, invalid("%#x is device %d's memory, not host memory", base, d.ID)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.checkOpen(); err != nil {
		return 0, err
	}
	i := sort.Search(len(v.regs), func(i int) bool { return v.regs[i].base >= base })
	overlaps := func(r hostReg) bool { return r.base < base+uintptr(size) && base < r.base+uintptr(r.size) }
	for _, j := range []int{i - 1, i} {
		if j >= 0 && j < len(v.regs) && overlaps(v.regs[j]) {
			return 0, abi.DevErrorf(abi.DevInUse, "%d bytes at %#x overlap the registered range %#x (%d bytes)", size, base, v.regs[j].base, v.regs[j].size)
		}
	}
	v.regs = append(v.regs, hostReg{})
	copy(v.regs[i+1:], v.regs[i:])
	v.regs[i] = hostReg{base: base, size: size, dev: dev, flags: flags, mapped: mapped}
	return base, nil
}

// HostUnregister ends the registration that starts at base
// (DRV_ERROR_NOT_EXIST if there is none). dev < 0 matches any device.
func (v *VMM) HostUnregister(base uintptr, dev int) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	for i, r := range v.regs {
		if r.base != base {
			continue
		}
		if dev >= 0 && r.dev != dev {
			return abi.DevErrorf(abi.DevNotFound, "%#x is registered for device %d, not device %d", base, r.dev, dev)
		}
		v.regs = append(v.regs[:i], v.regs[i+1:]...)
		return nil
	}
	if r, ok := v.regLocked(base); ok {
		return abi.DevErrorf(abi.DevNotFound, "%#x is inside the registered range at %#x, not its start", base, r.base)
	}
	return abi.DevErrorf(abi.DevNotFound, "%#x is not registered host memory", base)
}

// regLocked returns the registration holding addr. Precondition: v.mu held.
func (v *VMM) regLocked(addr uintptr) (hostReg, bool) {
	i := sort.Search(len(v.regs), func(i int) bool { return v.regs[i].base > addr }) - 1
	if i >= 0 && uint64(addr-v.regs[i].base) < v.regs[i].size {
		return v.regs[i], true
	}
	return hostReg{}, false
}

// Registered returns the registration holding addr.
func (v *VMM) Registered(addr uintptr) (Registration, bool) {
	if v == nil {
		return Registration{}, false
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	r, ok := v.regLocked(addr)
	return Registration{Base: r.base, Size: r.size, Dev: r.dev, Flags: r.flags, Mapped: r.mapped}, ok
}

// HostDevPointer returns the device address of registered host address
// addr (halMemHostGetDevPointer). dev < 0 matches any device.
func (v *VMM) HostDevPointer(addr uintptr, dev int) (uintptr, error) {
	r, ok := v.Registered(addr)
	switch {
	case !ok:
		return 0, abi.DevErrorf(abi.DevNotFound, "%#x is not registered host memory", addr)
	case dev >= 0 && r.Dev != dev:
		return 0, abi.DevErrorf(abi.DevNotFound, "%#x is registered for device %d, not device %d", addr, r.Dev, dev)
	case !r.Mapped:
		return 0, invalid("%#x is registered without a device mapping", addr)
	}
	return addr, nil
}

// Engine is an accelerator of a device. hal decodes drvAccModuleType and
// acl aclrtHacType into it.
type Engine uint8

// The engines.
const (
	EngineTaskScheduler Engine = iota // STARS
	EngineAICPU
	EngineAICore
	EngineVectorCore
	EnginePCIeDMA
	EngineRDMA
	EngineSDMA
	EngineDVPP
	EngineUDMA
	EngineCCU
)

// ReachesHostMemory reports whether e reaches registered host memory: the
// engines npuemu runs in this process do (task scheduler, AI CPU, AI Core,
// Vector Core, PCIe DMA, SDMA); RDMA, DVPP, UDMA and CCU are not modelled.
func (e Engine) ReachesHostMemory() bool {
	switch e {
	case EngineTaskScheduler, EngineAICPU, EngineAICore, EngineVectorCore, EnginePCIeDMA, EngineSDMA:
		return true
	}
	return false
}
