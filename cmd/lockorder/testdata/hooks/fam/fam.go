// Package fam fills core's hook table with a function that takes its own lock.
package fam

import (
	"sync"

	"hooks/core"
)

var mu sync.Mutex

func init() { core.H = core.Hooks{Drop: drop} }

func drop() {
	mu.Lock()
	mu.Unlock()
}
