package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// Resource limits of kernel launches (semantics.md §19). A limit caps the
// cores of one type (ACL_RT_DEV_RES_CUBE_CORE, _VECTOR_CORE) a kernel uses
// at once, so a launch of more blocks runs in more waves: its virtual
// duration grows, and on the host fewer lanes run its blocks.
//
// Precedence, for a launch from thread T: the limits of the stream T uses
// (aclrtSetStreamResLimit on it, then aclrtUseStreamResInCurrentThread in
// T), when that stream is on the launch's device; else the device's
// (aclrtSetDeviceResLimit); else the hardware. A type the chosen level
// leaves unset falls through to the next level. Limits affect launches
// made after they are set.
//
// The launch path reads none of this until some limit is set
// (limitsInUse), so unlimited launches pay one atomic load.

// checkResLimit validates a stream limit against the device's hardware.
func checkResLimit(fn string, s *core.Stream, typ int32, value uint32) error {
	hw, ok := hardwareCores(s.Ctx.Dev.Emu.SoC, typ)
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtDevResLimitType %d", fn, typ)
	}
	if value == 0 || value > hw {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %d cores: want 1..%d (the %s has %d)", fn, value, hw, s.Ctx.Dev.Emu.SoC.Name, hw)
	}
	return nil
}

// SetStreamResLimit implements aclrtSetStreamResLimit: 1..hardware cores;
// it applies to launches by threads that use the stream's resources
// (aclrtUseStreamResInCurrentThread).
func SetStreamResLimit(t *core.Thread, sh core.Handle, typ int32, value uint32) error {
	const fn = "aclrtSetStreamResLimit"
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if err := checkResLimit(fn, s, typ, value); err != nil {
		return err
	}
	core.StreamRes.Mu.Lock()
	if core.StreamRes.Limits == nil {
		core.StreamRes.Limits = map[*core.Stream]core.ResLimits{}
	}
	for old := range core.StreamRes.Limits {
		if old.Dead.Load() {
			delete(core.StreamRes.Limits, old)
		}
	}
	l := core.StreamRes.Limits[s]
	l[typ] = value
	core.StreamRes.Limits[s] = l
	core.StreamRes.Mu.Unlock()
	core.LimitsInUse.Store(true)
	return nil
}

// GetStreamResLimit implements aclrtGetStreamResLimit: the stream's limit,
// else the device's, else the hardware count.
func GetStreamResLimit(t *core.Thread, sh core.Handle, typ int32, value *uint32) error {
	const fn = "aclrtGetStreamResLimit"
	if value == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if _, ok := hardwareCores(s.Ctx.Dev.Emu.SoC, typ); !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtDevResLimitType %d", fn, typ)
	}
	if v := core.StreamLimit(s, typ); v != 0 {
		*value = v
		return nil
	}
	return deviceResLimit(fn, s.Ctx.Dev, typ, value)
}

// ResetStreamResLimit implements aclrtResetStreamResLimit.
func ResetStreamResLimit(t *core.Thread, sh core.Handle) error {
	s, err := core.ResolveStream(t, "aclrtResetStreamResLimit", sh)
	if err != nil {
		return err
	}
	core.StreamRes.Mu.Lock()
	delete(core.StreamRes.Limits, s)
	core.StreamRes.Mu.Unlock()
	return nil
}

// UseStreamResInCurrentThread implements aclrtUseStreamResInCurrentThread:
// the thread's later launches (and aclrtGetResInCurrentThread) follow the
// stream's limits.
func UseStreamResInCurrentThread(t *core.Thread, sh core.Handle) error {
	s, err := core.ResolveStream(t, "aclrtUseStreamResInCurrentThread", sh)
	if err != nil {
		return err
	}
	core.StreamRes.Mu.Lock()
	if core.StreamRes.Uses == nil {
		core.StreamRes.Uses = map[*core.Thread]*core.Stream{}
	}
	core.StreamRes.Uses[t] = s
	core.StreamRes.Mu.Unlock()
	return nil
}

// UnuseStreamResInCurrentThread implements
// aclrtUnuseStreamResInCurrentThread: the thread goes back to the device's
// limits. A stream the thread does not use is a parameter error.
func UnuseStreamResInCurrentThread(t *core.Thread, sh core.Handle) error {
	const fn = "aclrtUnuseStreamResInCurrentThread"
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	core.StreamRes.Mu.Lock()
	defer core.StreamRes.Mu.Unlock()
	if core.StreamRes.Uses[t] != s {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: the calling thread does not use stream %d's resources (aclrtUseStreamResInCurrentThread)", fn, s.ID)
	}
	delete(core.StreamRes.Uses, t)
	return nil
}

// threadResLimit is the stream-level part of aclrtGetResInCurrentThread:
// the limit of the stream t uses, when it is on device d and sets typ.
func threadResLimit(t *core.Thread, d *core.Device, typ int32) (uint32, bool) {
	s := core.ThreadStream(t)
	if s == nil || s.Ctx.Dev != d {
		return 0, false
	}
	v := core.StreamLimit(s, typ)
	return v, v != 0
}

// coreUtilization is the cube and vector part of
// aclrtGetDeviceUtilizationRate: the share of each pool running kernel
// blocks at the moment of the call, in percent (vector −1 on SoCs without
// separate vector cores, whose vector blocks count as cube use).
func coreUtilization(d *core.Device) (cube, vector int32) {
	c, v := d.Emu.TS.CoresInUse()
	soc := d.Emu.SoC
	if soc.CubeCores > 0 {
		cube = int32(c * 100 / soc.CubeCores)
	}
	vector = -1
	if soc.VectorCores > 0 {
		vector = int32(v * 100 / soc.VectorCores)
	}
	return cube, vector
}
