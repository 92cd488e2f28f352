package hal

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// node returns the process's emulated node (shared with ACL). A broken
// configuration is reported with the driver code of the emu error.
func node(fn string) (*emu.Node, error) {
	n, err := emu.Current()
	if err != nil {
		return nil, abi.DrvErrorf(abi.DrvCodeOf(err), "%s: emulator configuration: %s", fn, message(err))
	}
	return n, nil
}

// checkDevice validates a logical device id against the node.
func checkDevice(fn string, n *emu.Node, dev uint32) error {
	if uint64(dev) >= uint64(n.DeviceCount()) {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_DEVICE,
			"%s: device id %d out of range: the node has %d devices (0..%d)", fn, dev, n.DeviceCount(), n.DeviceCount()-1)
	}
	return nil
}

// nodeDevice returns the node and validates dev.
func nodeDevice(fn string, dev uint32) (*emu.Node, error) {
	n, err := node(fn)
	if err != nil {
		return nil, err
	}
	if err := checkDevice(fn, n, dev); err != nil {
		return nil, err
	}
	return n, nil
}

// openDevice returns device dev, opening it (its memory range and task
// scheduler) on first use.
func openDevice(fn string, n *emu.Node, dev uint32) (*emu.Device, error) {
	if err := checkDevice(fn, n, dev); err != nil {
		return nil, err
	}
	d, err := n.Device(int(dev))
	if err != nil {
		return nil, drvWrap(fn, err)
	}
	return d, nil
}

// message returns an error's own text without its code prefix.
func message(err error) string {
	switch e := err.(type) {
	case *abi.Error:
		if e.Msg != "" {
			return e.Msg
		}
	case *abi.DrvError:
		if e.Msg != "" {
			return e.Msg
		}
	case *abi.DevError:
		if e.Msg != "" {
			return e.Msg
		}
	}
	return err.Error()
}

// drvWrap turns an error of the model (an ACL-coded abi.Error) into the
// driver error that says the same, prefixed with the function name.
func drvWrap(fn string, err error) error {
	return abi.DrvErrorf(abi.DrvCodeOf(err), "%s: %s", fn, message(err))
}

// nullArg is the error of a NULL pointer argument.
func nullArg(fn, name string) error {
	return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %s must not be NULL", fn, name)
}
