package tsfw

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// TestLaneSize: a lane takes 80 bytes, more than a cache line, so the
// token two idle lanes poll is never on one line (aicore.go, lane).
func TestLaneSize(t *testing.T) {
	assert.Equal(t, uintptr(80), unsafe.Sizeof(lane{}))
}
