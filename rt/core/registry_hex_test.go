package core

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHexStr: hexStr prints what fmt's %#x prints, so the leak report's
// summaries read as they did when fmt built them.
func TestHexStr(t *testing.T) {
	for _, v := range []uint64{0, 1, 0xf, 0x10, 0xdeadbeef, 0x7f00_0000_1000, math.MaxUint64} {
		assert.Equal(t, fmt.Sprintf("%#x", v), hexStr(v))
	}
}
