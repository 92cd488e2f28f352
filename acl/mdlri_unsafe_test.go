package acl

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// TestRITaskParamsLayout pins RITaskParams to aclmdlRITaskParams
// (acl-types.md: 200 bytes, union at 72).
func TestRITaskParamsLayout(t *testing.T) {
	var p RITaskParams
	assert.Equal(t, uintptr(200), unsafe.Sizeof(p))
	assert.Equal(t, uintptr(16), unsafe.Offsetof(p.TaskGrp))
	assert.Equal(t, uintptr(24), unsafe.Offsetof(p.OpInfoPtr))
	assert.Equal(t, uintptr(32), unsafe.Offsetof(p.OpInfoSize))
	assert.Equal(t, uintptr(72), unsafe.Offsetof(p.Rsv2)) // the union
}
