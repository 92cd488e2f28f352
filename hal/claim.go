package hal

import (
	"github.com/npuemu/npuemu/abi"
)

// Runtime-owned blocks. The runtime's rtMalloc gets its device memory from
// halMemAlloc, as on hardware; the block then belongs to the runtime, which
// frees it with rtFree → halMemFree. Claim marks a block so that a direct
// halMemFree by the application is refused (the runtime still tracks it, as
// aclrtMalloc memory was refused before the rt layer existed); Release
// hands it back to the HAL just before the runtime's own halMemFree.

// Claim marks the halMemAlloc block at p as the runtime's.
func Claim(p uintptr) error {
	n, err := node("rtMalloc")
	if err != nil {
		return err
	}
	mem.mu.Lock()
	defer mem.mu.Unlock()
	blocks := blocksOf(n)
	b, ok := blocks[p]
	if !ok {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "rtMalloc: halMemAlloc returned %#x, which is not a halMemAlloc block (an interposed halMemAlloc must return driver memory)", p)
	}
	b.runtime = true
	blocks[p] = b
	return nil
}

// Release undoes Claim; it reports whether p was a claimed block.
func Release(p uintptr) bool {
	n, err := node("rtFree")
	if err != nil {
		return false
	}
	mem.mu.Lock()
	defer mem.mu.Unlock()
	blocks := blocksOf(n)
	b, ok := blocks[p]
	if !ok || !b.runtime {
		return false
	}
	b.runtime = false
	blocks[p] = b
	return true
}
