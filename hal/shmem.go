package hal

import (
	"os"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// Shared memory by name (halShmem*, hal-api.md §3.4) over emu.VMM's
// shmem model: the exporter's block and every opened address alias the
// same pages. One process only: the whitelist is checked against this
// process's own pid.

// ShmemCreateHandle implements halShmemCreateHandle: vptr must be the
// exact start of a device allocation; the name (at most 64 characters) is
// written NUL-terminated into a buffer of nameLen > 64 bytes.
func ShmemCreateHandle(vptr uintptr, size uint64, nameLen uint32) (string, error) {
	const fn = "halShmemCreateHandle"
	switch {
	case vptr == 0:
		return "", nullArg(fn, "vptr")
	case nameLen < emu.ShmemNameLen:
		return "", abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: name_len %d: the name buffer must hold at least %d bytes", fn, nameLen, emu.ShmemNameLen)
	}
	v, err := vmm(fn)
	if err != nil {
		return "", err
	}
	name, err := v.ShmemCreate(vptr, size, true)
	return name, wrap(fn, err)
}

// ShmemDestroyHandle implements halShmemDestroyHandle.
func ShmemDestroyHandle(name string) error {
	const fn = "halShmemDestroyHandle"
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	return wrap(fn, v.ShmemDestroy(name))
}

// ShmemSetPidHandle implements halShmemSetPidHandle.
func ShmemSetPidHandle(name string, pids []int32) error {
	const fn = "halShmemSetPidHandle"
	if len(pids) == 0 {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: pid must not be NULL and num not 0", fn)
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	return wrap(fn, v.ShmemSetPids(name, pids))
}

// ShmemOpenHandle implements halShmemOpenHandle (dev < 0) and
// halShmemOpenHandleByDevId.
func ShmemOpenHandle(fn string, dev int, name string, out *uintptr) error {
	if out == nil {
		return nullArg(fn, "vptr")
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	p, err := v.ShmemOpen(name, dev, int32(os.Getpid()))
	if err != nil {
		return wrap(fn, err)
	}
	*out = p
	return nil
}

// ShmemCloseHandle implements halShmemCloseHandle.
func ShmemCloseHandle(vptr uintptr) error {
	const fn = "halShmemCloseHandle"
	if vptr == 0 {
		return nullArg(fn, "vptr")
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	return wrap(fn, v.ShmemClose(vptr))
}

// ShmemSetAttribute implements halShmemSetAttribute.
func ShmemSetAttribute(name string, typ uint32, attr uint64) error {
	const fn = "halShmemSetAttribute"
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	a := shmemAttr(typ)
	return wrap(fn, v.ShmemSetAttr(name, a, shmemValue(a, attr)))
}

// ShmemGetAttribute implements halShmemGetAttribute.
func ShmemGetAttribute(name string, typ uint32, attr *uint64) error {
	const fn = "halShmemGetAttribute"
	if attr == nil {
		return nullArg(fn, "attr")
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	a := shmemAttr(typ)
	val, err := v.ShmemGetAttr(name, a)
	if err != nil {
		return wrap(fn, err)
	}
	*attr = shmemValueOf(a, val)
	return nil
}
