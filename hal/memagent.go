package hal

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// The memory manager's agents (halMemAgentOpen / halMemAgentClose,
// hal-api.md §3.4): per device, a device-side agent (SVM_AGENT_DEVICE) and
// a host-side one (SVM_AGENT_HOST), opened before calls that need them.
// Decisions where the documentation is silent (docs/hal.md, "Memory
// agents"):
//   - opening the device agent opens the device's memory, as
//     drvMemDeviceOpen does; the host agent serves the node's host memory,
//     which always exists, so opening it only records the state;
//   - opening an open agent again succeeds (the driver treats a repeated
//     open as done); closing an agent that is not open is
//     DRV_ERROR_INVALID_VALUE;
//   - the state belongs to the node: aclFinalize (a new node) closes every
//     agent;
//   - no npuemu call refuses to run for want of an open agent: the one
//     documented dependant, halMemGetAddressReserveRange, is neither
//     declared in our headers nor exported.

// agentKey is one agent: a device and the side it serves.
type agentKey struct {
	dev  uint32
	side uint32 // SVM_AGENT_DEVICE or SVM_AGENT_HOST
}

// agents holds the open agents of the current node.
var agents struct {
	mu   sync.Mutex            // leaf
	node *emu.Node             // guarded by mu
	open map[agentKey]struct{} // guarded by mu
}

// openAgents returns the open agents of node n.
// Precondition: agents.mu held.
func openAgents(n *emu.Node) map[agentKey]struct{} {
	if agents.node != n {
		agents.node, agents.open = n, map[agentKey]struct{}{}
	}
	return agents.open
}

// agentSide names an agent flag; ok is false for anything else.
func agentSide(flag uint32) (name string, ok bool) {
	switch flag {
	case abi.SVM_AGENT_DEVICE:
		return "SVM_AGENT_DEVICE", true
	case abi.SVM_AGENT_HOST:
		return "SVM_AGENT_HOST", true
	}
	return "", false
}

// checkAgent validates an agent call's arguments.
func checkAgent(fn string, devid, flag uint32) (*emu.Node, string, error) {
	side, ok := agentSide(flag)
	if !ok {
		return nil, "", abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE,
			"%s: flag %d is neither SVM_AGENT_DEVICE (%d) nor SVM_AGENT_HOST (%d)", fn, flag, abi.SVM_AGENT_DEVICE, abi.SVM_AGENT_HOST)
	}
	n, err := nodeDevice(fn, devid)
	if err != nil {
		return nil, "", err
	}
	return n, side, nil
}

// MemAgentOpen implements halMemAgentOpen.
func MemAgentOpen(devid, flag uint32) error {
	const fn = "halMemAgentOpen"
	n, _, err := checkAgent(fn, devid, flag)
	if err != nil {
		return err
	}
	if flag == abi.SVM_AGENT_DEVICE {
		if _, err := openDevice(fn, n, devid); err != nil {
			return err
		}
	}
	agents.mu.Lock()
	defer agents.mu.Unlock()
	openAgents(n)[agentKey{devid, flag}] = struct{}{}
	return nil
}

// MemAgentClose implements halMemAgentClose. The device stays open: its
// memory belongs to the process until aclFinalize, as with
// drvMemDeviceClose.
func MemAgentClose(devid, flag uint32) error {
	const fn = "halMemAgentClose"
	n, side, err := checkAgent(fn, devid, flag)
	if err != nil {
		return err
	}
	agents.mu.Lock()
	defer agents.mu.Unlock()
	open := openAgents(n)
	k := agentKey{devid, flag}
	if _, ok := open[k]; !ok {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: the %s agent of device %d is not open (halMemAgentOpen)", fn, side, devid)
	}
	delete(open, k)
	return nil
}
