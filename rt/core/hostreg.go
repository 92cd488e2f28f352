package core

import (
	"errors"

	"github.com/npuemu/npuemu/abi"
)

// HostRegErr converts the driver's answers to the runtime's codes for
// registration: an overlapping registration is
// ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, an unknown one
// ACL_ERROR_HOST_MEMORY_NOT_REGISTERED.
func HostRegErr(fn string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, abi.DrvErr(abi.DRV_ERROR_REPEATED_USERD)):
		return abi.Errorf(abi.ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "%s: %s", fn, abi.MessageOf(err))
	case errors.Is(err, abi.DrvErr(abi.DRV_ERROR_NOT_EXIST)):
		return abi.Errorf(abi.ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "%s: %s", fn, abi.MessageOf(err))
	}
	return WrapWithAPI(fn, err)
}

// HostRegister registers for the current device.
func HostRegister(t *Thread, fn string, p uintptr, size uint64, flags uint32, mapped bool) (uintptr, error) {
	c, err := Current(t, fn)
	if err != nil {
		return 0, err
	}
	_, n, err := SoC(fn)
	if err != nil {
		return 0, err
	}
	out, err := n.VMM().HostRegister(p, size, int(c.Dev.ID), flags, mapped)
	return out, HostRegErr(fn, err)
}
