package core

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
)

// OvfWordSize is the size of the per-context status word.
const OvfWordSize = 8

var ovf struct {
	mu    sync.Mutex
	words map[*Context]uintptr
}

// OverflowWord returns c's status word, allocating and zeroing it on first
// use; words of destroyed contexts are released on the way.
func OverflowWord(fn string, c *Context) (uintptr, error) {
	ovf.mu.Lock()
	defer ovf.mu.Unlock()
	if ovf.words == nil {
		ovf.words = map[*Context]uintptr{}
	}
	for x, a := range ovf.words {
		if x.Dead.Load() {
			_, _ = x.Dev.Emu.HBM.Free(a) // fails harmlessly once the device memory is closed
			delete(ovf.words, x)
		}
	}
	if a, ok := ovf.words[c]; ok {
		return a, nil
	}
	a, err := c.Dev.Emu.HBM.Alloc(OvfWordSize, 0)
	if err != nil {
		return 0, abi.Wrapf(err, "%s: overflow status word of device %d", fn, c.Dev.ID)
	}
	if err := c.Dev.Emu.TS.MemsetNow(a, 0, OvfWordSize); err != nil {
		_, _ = c.Dev.Emu.HBM.Free(a)
		return 0, abi.Wrapf(err, "%s: device %d", fn, c.Dev.ID)
	}
	ovf.words[c] = a
	return a, nil
}
