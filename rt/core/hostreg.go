package core

import (
	"errors"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/stack"
)

// HostRegErr converts the driver's answers to the runtime's codes for
// registration (registrationCode); other errors keep their own code
// (an ACL entry point's).
func HostRegErr(fn string, err error) error {
	if c, ok := registrationCode(err); ok {
		return abi.Errorf(c, "%s: %s", fn, abi.MessageOf(err))
	}
	return WrapWithAPI(fn, err)
}

// HostRegister registers for the current device through the driver's
// halHostRegister (rt/stack: an interposed definition decides): mapped
// memory is HOST_MEM_MAP_DEV, which gives the device address; pinned-only
// memory is HOST_MEM_MAP_DMA (page-locked for the copy engines, no device
// address).
func HostRegister(t *Thread, fn string, p uintptr, size uint64, mapped bool) (uintptr, error) {
	c, err := Current(t, fn)
	if err != nil {
		return 0, err
	}
	if _, _, err := SoC(fn); err != nil {
		return 0, err
	}
	flag := uint32(abi.HOST_MEM_MAP_DMA)
	if mapped {
		flag = abi.HOST_MEM_MAP_DEV
	}
	var out uintptr
	if err := stack.HostRegister(p, size, flag, uint32(c.Dev.ID), &out); err != nil {
		return 0, hostRegDriverErr(fn, err)
	}
	return out, nil
}

// HostUnregister ends the registration that starts at p through the
// driver's halHostUnregisterEx, for the device and with the map type it
// was registered with (the runtime's record of it: the model's
// registration). An address no registration holds is asked for the current
// device (device 0 without one), and the driver refuses it.
func HostUnregister(t *Thread, fn string, p uintptr) error {
	_, n, err := SoC(fn)
	if err != nil {
		return err
	}
	dev, flag := uint32(0), uint32(abi.HOST_MEM_MAP_DEV)
	if r, ok := n.VMM().Registered(p); ok {
		dev, flag = uint32(r.Dev), r.Flags&(1<<abi.MEM_PROC_TYPE_BIT-1)
	} else if c, err := Current(t, fn); err == nil {
		dev = uint32(c.Dev.ID)
	}
	return hostRegDriverErr(fn, stack.HostUnregisterEx(p, dev, flag))
}

// hostRegDriverErr is HostRegErr for the rt* calls: any other driver
// code is converted as rt-types.md §8.4 says.
func hostRegDriverErr(fn string, err error) error {
	if c, ok := registrationCode(err); ok {
		return abi.Errorf(c, "%s: %s", fn, abi.MessageOf(err))
	}
	return DriverErr(fn, err)
}

// registrationCode is the runtime's code for the driver's answers to
// registration: an overlapping registration (DRV_ERROR_REPEATED_USERD) is
// ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, an unknown one
// (DRV_ERROR_NOT_EXIST) ACL_ERROR_HOST_MEMORY_NOT_REGISTERED.
func registrationCode(err error) (abi.Code, bool) {
	switch {
	case errors.Is(err, abi.DrvErr(abi.DRV_ERROR_REPEATED_USERD)):
		return abi.ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, true
	case errors.Is(err, abi.DrvErr(abi.DRV_ERROR_NOT_EXIST)):
		return abi.ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, true
	}
	return 0, false
}
