package acl

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// TestRandomLayout pins the Go mirrors to acl-types.md's layouts, since
// libfake hands the C structs to acl by pointer.
func TestRandomLayout(t *testing.T) {
	var p RandomParaInfo
	assert.Equal(t, uintptr(16), unsafe.Sizeof(p))
	assert.Equal(t, uintptr(9), unsafe.Offsetof(p.Size))
	var i RandomNumTaskInfo
	assert.Equal(t, uintptr(104), unsafe.Sizeof(i))
	assert.Equal(t, uintptr(8), unsafe.Alignof(i))
	for _, c := range []struct {
		name string
		got  uintptr
		want uintptr
	}{
		{"funcType", unsafe.Offsetof(i.RandomNumFuncParaInfo) + unsafe.Offsetof(i.RandomNumFuncParaInfo.FuncType), 4},
		{"paramInfo", unsafe.Offsetof(i.RandomNumFuncParaInfo) + unsafe.Offsetof(i.RandomNumFuncParaInfo.ParamInfo), 8},
		{"randomParaAddr", unsafe.Offsetof(i.RandomParaAddr), 40},
		{"randomResultAddr", unsafe.Offsetof(i.RandomResultAddr), 48},
		{"randomCounterAddr", unsafe.Offsetof(i.RandomCounterAddr), 56},
		{"randomSeed", unsafe.Offsetof(i.RandomSeed), 64},
		{"randomNum", unsafe.Offsetof(i.RandomNum), 80},
		{"rsv", unsafe.Offsetof(i.Rsv), 96},
	} {
		assert.Equal(t, c.want, c.got, c.name)
	}
}
