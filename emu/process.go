package emu

import (
	"sync"
	"sync/atomic"
)

// The process-wide node. ACL and the HAL are two views of one machine: an
// allocation made through either is accounted in the same Device.HBM, so
// both reach the node through Current rather than keeping their own.
var process struct {
	mu   sync.Mutex           // serialises creation and CloseCurrent
	node atomic.Pointer[Node] // read lock-free on every call
}

// Current returns the process's node, creating it from LoadConfig and the
// process's platform (UsePlatform) on first use. Concurrent callers get the same node. A configuration error is
// returned to every caller (nothing is cached), so fixing the environment
// and calling again works.
func Current() (*Node, error) {
	if n := process.node.Load(); n != nil {
		return n, nil
	}
	process.mu.Lock()
	defer process.mu.Unlock()
	if n := process.node.Load(); n != nil {
		return n, nil
	}
	cfg, err := LoadConfig()
	if err != nil {
		return nil, err
	}
	n, err := NewNode(cfg, ProcessPlatform())
	if err != nil {
		return nil, err
	}
	process.node.Store(n)
	return n, nil
}

// Loaded returns the process's node if one exists, without creating it.
func Loaded() *Node { return process.node.Load() }

// CloseCurrent closes the process's node (aclFinalize): its devices stop and
// all of their memory is unmapped. The next Current creates a fresh node
// from the configuration as it is then.
func CloseCurrent() {
	process.mu.Lock()
	defer process.mu.Unlock()
	if n := process.node.Swap(nil); n != nil {
		n.Close()
	}
}
