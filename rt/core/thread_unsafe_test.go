package core

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// TestThreadSize: a Thread stays in the 160-byte size class (thread.go,
// runnable): a larger one moved the launch figures by where its fields
// land, not by what they do.
func TestThreadSize(t *testing.T) {
	assert.LessOrEqual(t, unsafe.Sizeof(Thread{}), uintptr(160))
}
