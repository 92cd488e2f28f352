package core

import (
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/tsfw"
)

// LimitsInUse turns true when any device or stream limit is set.
var LimitsInUse atomic.Bool

// ResLimits are the limits of one stream: 0 means unset.
type ResLimits [2]uint32 // indexed by aclrtDevResLimitType

var StreamRes struct {
	Mu     sync.Mutex
	Limits map[*Stream]ResLimits
	Uses   map[*Thread]*Stream // aclrtUseStreamResInCurrentThread
}

// StreamLimit returns the limit of typ set on s, 0 if none.
func StreamLimit(s *Stream, typ int32) uint32 {
	StreamRes.Mu.Lock()
	defer StreamRes.Mu.Unlock()
	return StreamRes.Limits[s][typ]
}

// ThreadStream returns the live stream whose limits t uses, or nil.
func ThreadStream(t *Thread) *Stream {
	StreamRes.Mu.Lock()
	s := StreamRes.Uses[t]
	StreamRes.Mu.Unlock()
	if s == nil || s.Dead.Load() {
		return nil
	}
	return s
}

// effectiveLimit is the limit of typ in force for a launch by t on device
// d; 0 when none is set (the hardware count applies).
func effectiveLimit(t *Thread, d *Device, typ int32) uint32 {
	if s := ThreadStream(t); s != nil && s.Ctx.Dev == d {
		if v := StreamLimit(s, typ); v != 0 {
			return v
		}
	}
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	return d.ResLimit[typ]
}

// launchCap is KernelSpec.MaxCores for a launch by t on s: how many blocks
// may run at once under the limits in force, 0 for no cap.
func launchCap(t *Thread, s *Stream, spec *tsfw.KernelSpec) uint32 {
	if !LimitsInUse.Load() {
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

// NoteResLimit records that a limit was set (aclrtSetDeviceResLimit).
func NoteResLimit() { LimitsInUse.Store(true) }
