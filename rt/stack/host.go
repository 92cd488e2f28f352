package stack

import "github.com/npuemu/npuemu/hal"

// whyRuntimeHostQueues is why the rt* functions that set up streams, tasks
// and contexts make no halHostRegister call here (NotCrossedPairs).
const whyRuntimeHostQueues = "the vendor runtime registers host memory of its own there (its PCIe-TH queue memory, NpuDriver::PcieHostRegister); npuemu's runtime keeps no host-side queues for a device to read, so it registers nothing: only the program's registrations (rtsHostRegister, rtHostRegisterV2) reach the driver"

// Host memory registration and IPC shared memory as the runtime calls the
// driver for them (rt-to-hal.tsv): each wrapper calls an interposed
// definition when HAL has one, else the hal package directly.

// HostRegister is halHostRegister as the runtime calls it.
func HostRegister(src uintptr, size uint64, flag, dev uint32, dst *uintptr) error {
	if f := HAL.HostRegister; f != nil {
		return f(src, size, flag, dev, dst)
	}
	return hal.HostRegister(src, size, flag, dev, dst)
}

// HostUnregisterEx is halHostUnregisterEx as the runtime calls it: flag
// names the map type the range was registered with.
func HostUnregisterEx(src uintptr, dev, flag uint32) error {
	if f := HAL.HostUnregisterEx; f != nil {
		return f(src, dev, flag)
	}
	return hal.HostUnregister("halHostUnregisterEx", src, dev, flag, true)
}

// HostRegisterCapabilities is halHostRegisterCapabilities as the runtime
// calls it.
func HostRegisterCapabilities(dev, acc uint32, out *uint32) error {
	if f := HAL.HostRegisterCapabilities; f != nil {
		return f(dev, acc, out)
	}
	return hal.HostRegisterCapabilities(dev, acc, out)
}

// ShmemCreateHandle is halShmemCreateHandle as the runtime calls it, with a
// name buffer of nameLen bytes; it returns the name.
func ShmemCreateHandle(vptr uintptr, size uint64, nameLen uint32) (string, error) {
	if f := HAL.ShmemCreateHandle; f != nil {
		return f(vptr, size, nameLen)
	}
	return hal.ShmemCreateHandle(vptr, size, nameLen)
}

// ShmemSetAttribute is halShmemSetAttribute as the runtime calls it.
func ShmemSetAttribute(name string, typ uint32, attr uint64) error {
	if f := HAL.ShmemSetAttribute; f != nil {
		return f(name, typ, attr)
	}
	return hal.ShmemSetAttribute(name, typ, attr)
}

// ShmemSetPidHandle is halShmemSetPidHandle as the runtime calls it.
func ShmemSetPidHandle(name string, pids []int32) error {
	if f := HAL.ShmemSetPidHandle; f != nil {
		return f(name, pids)
	}
	return hal.ShmemSetPidHandle(name, pids)
}

// ShmemOpenHandle is halShmemOpenHandle as the runtime calls it.
func ShmemOpenHandle(name string, out *uintptr) error {
	if f := HAL.ShmemOpenHandle; f != nil {
		return f(name, out)
	}
	return hal.ShmemOpenHandle("halShmemOpenHandle", -1, name, out)
}

// ShmemCloseHandle is halShmemCloseHandle as the runtime calls it.
func ShmemCloseHandle(vptr uintptr) error {
	if f := HAL.ShmemCloseHandle; f != nil {
		return f(vptr)
	}
	return hal.ShmemCloseHandle(vptr)
}

// ShmemDestroyHandle is halShmemDestroyHandle as the runtime calls it.
func ShmemDestroyHandle(name string) error {
	if f := HAL.ShmemDestroyHandle; f != nil {
		return f(name)
	}
	return hal.ShmemDestroyHandle(name)
}
