package emu

import (
	"sort"
	"sync"
)

// ModuleUsage is one module's device memory on a device: what it holds
// now and the most it has held (aclrtGetMemUsageInfo's cur and peak).
type ModuleUsage struct {
	Module    uint16 // the driver's module id (APP_MODULE_ID, ...)
	Cur, Peak uint64 // bytes
}

// moduleUsage holds a device's per-module counters. Both API surfaces
// charge the device itself (the runtime's aclrtMalloc* and pool
// reservations, aclrtMallocPhysical; the driver's halMemAlloc and
// halMemCreate), so memory of both adds up, and the counters live and die
// with the device.
type moduleUsage struct {
	mu sync.Mutex // nothing is taken under it
	m  map[uint16]*ModuleUsage
}

// NoteUsage charges delta bytes of device memory (negative: released) to
// module. A release never takes a counter below zero.
func (d *Device) NoteUsage(module uint16, delta int64) {
	if d == nil || delta == 0 {
		return
	}
	d.usage.mu.Lock()
	defer d.usage.mu.Unlock()
	if d.usage.m == nil {
		d.usage.m = map[uint16]*ModuleUsage{}
	}
	u := d.usage.m[module]
	if u == nil {
		u = &ModuleUsage{Module: module}
		d.usage.m[module] = u
	}
	if delta < 0 {
		u.Cur -= min(u.Cur, uint64(-delta))
	} else {
		u.Cur += uint64(delta)
		u.Peak = max(u.Peak, u.Cur)
	}
}

// MemUsage returns every module that has held memory on d, by current
// usage descending, then peak descending, then module id.
func (d *Device) MemUsage() []ModuleUsage {
	if d == nil {
		return nil
	}
	d.usage.mu.Lock()
	out := make([]ModuleUsage, 0, len(d.usage.m))
	for _, u := range d.usage.m {
		out = append(out, *u)
	}
	d.usage.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Cur != b.Cur {
			return a.Cur > b.Cur
		}
		if a.Peak != b.Peak {
			return a.Peak > b.Peak
		}
		return a.Module < b.Module
	})
	return out
}
