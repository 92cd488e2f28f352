package acl

import (
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
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

// limitsInUse turns true when any device or stream limit is set.
var limitsInUse atomic.Bool

// noteResLimit records that a limit was set (aclrtSetDeviceResLimit).
func noteResLimit() { limitsInUse.Store(true) }

// resLimits are the limits of one stream: 0 means unset.
type resLimits [2]uint32 // indexed by aclrtDevResLimitType

var streamRes struct {
	mu     sync.Mutex
	limits map[*core.Stream]resLimits
	uses   map[*core.Thread]*core.Stream // aclrtUseStreamResInCurrentThread
}

// streamLimit returns the limit of typ set on s, 0 if none.
func streamLimit(s *core.Stream, typ int32) uint32 {
	streamRes.mu.Lock()
	defer streamRes.mu.Unlock()
	return streamRes.limits[s][typ]
}

// threadStream returns the live stream whose limits t uses, or nil.
func threadStream(t *core.Thread) *core.Stream {
	streamRes.mu.Lock()
	s := streamRes.uses[t]
	streamRes.mu.Unlock()
	if s == nil || s.Dead.Load() {
		return nil
	}
	return s
}

// effectiveLimit is the limit of typ in force for a launch by t on device
// d; 0 when none is set (the hardware count applies).
func effectiveLimit(t *core.Thread, d *core.Device, typ int32) uint32 {
	if s := threadStream(t); s != nil && s.Ctx.Dev == d {
		if v := streamLimit(s, typ); v != 0 {
			return v
		}
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	return d.ResLimit[typ]
}

// launchCap is KernelSpec.MaxCores for a launch by t on s: how many blocks
// may run at once under the limits in force, 0 for no cap.
func launchCap(t *core.Thread, s *core.Stream, spec *tsfw.KernelSpec) uint32 {
	if !limitsInUse.Load() {
		return 0
	}
	d := s.Ctx.Dev
	cube := effectiveLimit(t, d, abi.ACL_RT_DEV_RES_CUBE_CORE)
	vector := effectiveLimit(t, d, abi.ACL_RT_DEV_RES_VECTOR_CORE)
	cube, vector = withinGroup(s.Ctx, cube, vector) // group.go
	if d.Emu.SoC.VectorCores == 0 {
		// Vector blocks run on the AI Cores, which the cube limit counts.
		vector = cube
	}
	switch spec.Kind {
	case tsfw.CoreVector:
		return vector
	case tsfw.CoreMix:
		if d.Emu.SoC.VectorCores == 0 {
			return cube
		}
		mv := max(spec.MixVector, 1)
		switch {
		case cube == 0 && vector == 0:
			return 0
		case vector == 0:
			return cube
		case cube == 0:
			return max(vector/mv, 1)
		}
		return max(min(cube, vector/mv), 1)
	}
	return cube
}

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
	streamRes.mu.Lock()
	if streamRes.limits == nil {
		streamRes.limits = map[*core.Stream]resLimits{}
	}
	for old := range streamRes.limits {
		if old.Dead.Load() {
			delete(streamRes.limits, old)
		}
	}
	l := streamRes.limits[s]
	l[typ] = value
	streamRes.limits[s] = l
	streamRes.mu.Unlock()
	limitsInUse.Store(true)
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
	if v := streamLimit(s, typ); v != 0 {
		*value = v
		return nil
	}
	return GetDeviceResLimit(t, s.Ctx.Dev.ID, typ, value)
}

// ResetStreamResLimit implements aclrtResetStreamResLimit.
func ResetStreamResLimit(t *core.Thread, sh core.Handle) error {
	s, err := core.ResolveStream(t, "aclrtResetStreamResLimit", sh)
	if err != nil {
		return err
	}
	streamRes.mu.Lock()
	delete(streamRes.limits, s)
	streamRes.mu.Unlock()
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
	streamRes.mu.Lock()
	if streamRes.uses == nil {
		streamRes.uses = map[*core.Thread]*core.Stream{}
	}
	streamRes.uses[t] = s
	streamRes.mu.Unlock()
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
	streamRes.mu.Lock()
	defer streamRes.mu.Unlock()
	if streamRes.uses[t] != s {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: the calling thread does not use stream %d's resources (aclrtUseStreamResInCurrentThread)", fn, s.ID)
	}
	delete(streamRes.uses, t)
	return nil
}

// threadResLimit is the stream-level part of aclrtGetResInCurrentThread:
// the limit of the stream t uses, when it is on device d and sets typ.
func threadResLimit(t *core.Thread, d *core.Device, typ int32) (uint32, bool) {
	s := threadStream(t)
	if s == nil || s.Ctx.Dev != d {
		return 0, false
	}
	v := streamLimit(s, typ)
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
