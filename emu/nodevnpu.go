package emu

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
)

// Virtual NPUs (docs/node.md, "vNPUs"): a device of the node can be split
// into vNPUs from the documented templates of the Atlas A2 (910B) family.
// A vNPU is an entry of the node's vNPU table; a process binds to one with
// NPUEMU_VNPU=<vdev id> and then sees, for that device, the vNPU's AI
// Cores, AI CPUs and memory in every query, and is limited to them (its
// task scheduler has only those cores; its allocations count against the
// vNPU's memory as well as the device's). vNPUs are created when the node
// is created, from NPUEMU_VNPUS="<phys>:<template>[,...]", or later by
// dcmi_create_vdevice (libdcmi writes the same table).

// Environment variables of vNPUs.
const (
	EnvVNPUs = "NPUEMU_VNPUS" // vNPUs made with a new node: "0:vir10_3c_32g,0:vir05_1c_16g"
	EnvVNPU  = "NPUEMU_VNPU"  // the vNPU (vdev id) this process is bound to
)

// VNPUTemplate is one documented vNPU template (dcmi-api.md §9).
type VNPUTemplate struct {
	Name     string
	AICores  int
	AICPUs   int
	ShownMB  uint64 // memory npu-smi shows
	ActualMB uint64 // memory actually carved
}

// vnpuTemplates lists the templates each SoC accepts.
var vnpuTemplates = map[string][]VNPUTemplate{
	"Ascend910B3": {{"vir10_3c_32g", 10, 3, 32768, 30720}, {"vir05_1c_16g", 5, 1, 16384, 15360}},
	"Ascend910B2": {{"vir12_3c_32g", 12, 3, 32768, 30720}, {"vir06_1c_16g", 6, 1, 16384, 15360}},
	"Ascend910B1": {{"vir12_3c_32g", 12, 3, 32768, 30720}, {"vir06_1c_16g", 6, 1, 16384, 15360}},
	"Ascend910B4": {{"vir10_3c_16g", 10, 3, 16384, 14336}, {"vir10_4c_16g_m", 10, 4, 16384, 14336},
		{"vir10_3c_16g_nm", 10, 3, 16384, 14336}, {"vir05_1c_8g", 5, 1, 8192, 7168}},
}

// VNPUTemplates returns the templates soc accepts (none outside the A2
// 910B family).
func VNPUTemplates(soc string) []VNPUTemplate { return vnpuTemplates[soc] }

// vnpuAt returns vNPU entry k of physical device phys.
func (d *NodeDir) vnpuAt(phys, k int) *NodeVNPU {
	i := uint64(phys*NodeMaxVNPUs + k)
	return nodeVNPUAt(d.mem + uintptr(d.hdr.VNPUsOff) + uintptr(i*sizeofNodeVNPU))
}

// CreateVNPU carves a vNPU of template tmpl out of physical device phys
// and returns its vdev id (100 + 16*phys + k).
func (d *NodeDir) CreateVNPU(phys int, tmpl string) (uint32, error) {
	if phys < 0 || phys >= int(d.hdr.DeviceCount) {
		return 0, abi.DevErrorf(abi.DevBadArgument, "vNPU: device %d out of range (0..%d)", phys, d.hdr.DeviceCount-1)
	}
	rec := d.Device(phys)
	soc := cString(rec.SocName[:])
	var t *VNPUTemplate
	for i, x := range vnpuTemplates[soc] {
		if x.Name == tmpl {
			t = &vnpuTemplates[soc][i]
		}
	}
	if t == nil {
		var names []string
		for _, x := range vnpuTemplates[soc] {
			names = append(names, x.Name)
		}
		return 0, abi.DevErrorf(abi.DevBadArgument, "vNPU: %s does not accept template %q (it accepts: %s)", soc, tmpl, strings.Join(names, ", "))
	}
	if err := d.lock(); err != nil {
		return 0, err
	}
	defer d.unlock()
	mem := t.ActualMB << 20
	if uint32(t.AICores) > rec.AICoreFree || uint32(t.AICPUs) > rec.AICPUFree || mem > rec.HBMFreeVNPU {
		return 0, abi.DevErrorf(abi.DevNoResource,
			"vNPU: device %d has %d AI Cores, %d AI CPUs and %d bytes not given to vNPUs; %s needs %d, %d and %d",
			phys, rec.AICoreFree, rec.AICPUFree, rec.HBMFreeVNPU, tmpl, t.AICores, t.AICPUs, mem)
	}
	for k := 0; k < NodeMaxVNPUs; k++ {
		v := d.vnpuAt(phys, k)
		if v.State != NodeEntryFree {
			continue
		}
		*v = NodeVNPU{VDevID: uint32(100 + 16*phys + k), VFGID: uint32(k), Device: uint32(phys),
			AICoreCount: uint32(t.AICores), AICPUCount: uint32(t.AICPUs), HBMBytes: mem, HBMShown: t.ShownMB << 20}
		copy(v.TemplateName[:len(v.TemplateName)-1], t.Name)
		v.State = NodeEntryLive
		rec.VNPUCount++
		rec.AICoreFree -= uint32(t.AICores)
		rec.AICPUFree -= uint32(t.AICPUs)
		rec.HBMFreeVNPU -= mem
		return v.VDevID, nil
	}
	return 0, abi.DevErrorf(abi.DevNoResource, "vNPU: device %d already has %d vNPUs", phys, NodeMaxVNPUs)
}

// createConfiguredVNPUs makes the vNPUs NPUEMU_VNPUS names (a new node).
func (d *NodeDir) createConfiguredVNPUs(spec string) error {
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		dev, tmpl, ok := strings.Cut(item, ":")
		phys, err := strconv.Atoi(dev)
		if !ok || err != nil {
			return abi.DevErrorf(abi.DevBadArgument, "%s=%q: entry %q: want <device>:<template>", EnvVNPUs, spec, item)
		}
		if _, err := d.CreateVNPU(phys, tmpl); err != nil {
			return fmt.Errorf("%s=%q: %w", EnvVNPUs, spec, err)
		}
	}
	return nil
}

// bindVNPU binds this process to vNPU vdev if it lives on physical device
// phys: it returns the vNPU, or nil when vdev is on another device.
func (d *NodeDir) bindVNPU(phys int, vdev uint32) (*NodeVNPU, error) {
	if err := d.lock(); err != nil {
		return nil, err
	}
	defer d.unlock()
	for p := 0; p < int(d.hdr.DeviceCount); p++ {
		for k := 0; k < NodeMaxVNPUs; k++ {
			v := d.vnpuAt(p, k)
			if v.State != NodeEntryLive || v.VDevID != vdev {
				continue
			}
			if p != phys {
				return nil, nil
			}
			if d.proc.VNPU[phys] != int32(vdev) {
				d.proc.VNPU[phys] = int32(vdev)
				v.ProcessCount++
			}
			return v, nil
		}
	}
	return nil, abi.DevErrorf(abi.DevNoDevice,
		"%s=%d: no such vNPU on the node %s (create it with %s or dcmi_create_vdevice)", EnvVNPU, vdev, d.path, EnvVNPUs)
}

// boundVNPU returns the vNPU id of NPUEMU_VNPU (-1 when unset).
func boundVNPU() (int64, error) {
	v := strings.TrimSpace(os.Getenv(EnvVNPU))
	if v == "" {
		return -1, nil
	}
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil {
		return -1, abi.DevErrorf(abi.DevBadArgument, "%s=%q: want a vdev id", EnvVNPU, v)
	}
	return int64(n), nil
}

// vnpuSoC is soc as a process bound to v sees it.
func vnpuSoC(soc SoC, v *NodeVNPU) SoC {
	ratio := 0
	if soc.CubeCores > 0 {
		ratio = soc.VectorCores / soc.CubeCores
	}
	soc.AICores, soc.CubeCores = int(v.AICoreCount), int(v.AICoreCount)
	soc.VectorCores = ratio * int(v.AICoreCount)
	soc.AICPUs = int(v.AICPUCount)
	soc.UsableHBMBytes = v.HBMBytes
	return soc
}

// reclaimVNPULocked unbinds dead slot p from its vNPUs. Precondition:
// table lock held.
func (d *NodeDir) reclaimVNPULocked(p *NodeProc) {
	for phys := 0; phys < int(d.hdr.DeviceCount); phys++ {
		id := p.VNPU[phys]
		if id < 0 {
			continue
		}
		for k := 0; k < NodeMaxVNPUs; k++ {
			v := d.vnpuAt(phys, k)
			if v.State == NodeEntryLive && v.VDevID == uint32(id) {
				subSat(&v.HBMUsed, atomic.LoadUint64(&p.HBMBytes[phys]))
				if v.ProcessCount > 0 {
					v.ProcessCount--
				}
			}
		}
		p.VNPU[phys] = -1
	}
}

// vnpuOf binds this process to its NPUEMU_VNPU if that vNPU lives on
// physical device phys; nil when the process uses the whole device.
func (d *NodeDir) vnpuOf(phys int) (*NodeVNPU, error) {
	id, err := boundVNPU()
	if err != nil || id < 0 {
		return nil, err
	}
	return d.bindVNPU(phys, uint32(id))
}
