package stack

import "github.com/npuemu/npuemu/hal"

// The driver's information calls as the runtime makes them (rt-to-hal.tsv):
// each goes to an interposed definition when a library interposed the
// driver symbol (HAL's field set), else straight to the hal package.
// Which rt* function asks which is listed in Crossings (crossings.go).

// GetDevNum is drvGetDevNum as the runtime calls it.
func GetDevNum(num *uint32) error {
	if f := HAL.GetDevNum; f != nil {
		return f(num)
	}
	return hal.GetDevNum(num)
}

// DeviceGetPhyIDByIndex is drvDeviceGetPhyIdByIndex as the runtime calls it.
func DeviceGetPhyIDByIndex(index uint32, phy *uint32) error {
	if f := HAL.DeviceGetPhyIDByIndex; f != nil {
		return f(index, phy)
	}
	return hal.PhyIDByIndex(index, phy)
}

// DeviceGetIndexByPhyID is drvDeviceGetIndexByPhyId as the runtime calls it.
func DeviceGetIndexByPhyID(phy uint32, index *uint32) error {
	if f := HAL.DeviceGetIndexByPhyID; f != nil {
		return f(phy, index)
	}
	return hal.IndexByPhyID(phy, index)
}

// GetPlatformInfo is drvGetPlatformInfo as the runtime calls it.
func GetPlatformInfo(info *uint32) error {
	if f := HAL.GetPlatformInfo; f != nil {
		return f(info)
	}
	return hal.PlatformInfo(info)
}

// GetSocVersion is halGetSocVersion as the runtime calls it: the SoC name,
// NUL-terminated, into buf.
func GetSocVersion(dev uint32, buf []byte) error {
	if f := HAL.GetSocVersion; f != nil {
		return f(dev, buf)
	}
	return hal.SocVersion(dev, buf)
}

// ResourceInfoQuery is halResourceInfoQuery as the runtime calls it.
func ResourceInfoQuery(dev, ts uint32, typ int32, out *hal.ResourceInfo) error {
	if f := HAL.ResourceInfoQuery; f != nil {
		return f(dev, ts, typ, out)
	}
	return hal.ResourceInfoQuery(dev, ts, typ, out)
}

// GetDeviceSplitMode is halGetDeviceSplitMode as the runtime calls it.
func GetDeviceSplitMode(dev uint32, mode *uint32) error {
	if f := HAL.GetDeviceSplitMode; f != nil {
		return f(dev, mode)
	}
	return hal.DeviceSplitMode(dev, mode)
}

// Why the information calls are not made in the other rows of their
// driver functions (NotCrossed).
const (
	whyNoDeviceSide = "npuemu runs on the host side only (drvGetPlatformInfo answers 1): no path of npuemu's runtime branches on the platform, so it asks only where it reports it (rtGetRunMode)"
	whyDriverIndex  = "npuemu's driver takes the device index where the vendor's takes the physical id, and its physical ids are its indexes (hal/device.go), so no translation is asked"
	whyNoDriverOpen = "the driver's open/close pair (drvMemDeviceOpen/drvMemDeviceClose) has no counterpart in npuemu's runtime: its device open is the node's (rt/core openDeviceLocked), which needs no driver handle"
)
