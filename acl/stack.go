package acl

import (
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// The ACL surface calls the runtime's rt* functions through below(): the
// interposed rt* definition when the emulated layout is split and another
// library interposed that symbol (stack.RT, set once at load), this
// package's runtime-level implementation (rt/core/memory.go, ...) otherwise. Either
// way the result carries the rt* code, which the aclrt* function returns
// unchanged (ACL_GET_ERRCODE_RTS is the identity). docs/stack.md says which
// aclrt* functions are routed so far.

type runtimeCalls struct{}

func below() runtimeCalls { return runtimeCalls{} }

// Malloc is rtMalloc.
func (runtimeCalls) Malloc(t *core.Thread, out *uintptr, size uint64, typ uint32, module uint16) error {
	if f := stack.RT.Malloc; f != nil {
		return f(out, size, typ, module)
	}
	return core.RuntimeMalloc(t, out, size, typ, module)
}

// Free is rtFree.
func (runtimeCalls) Free(t *core.Thread, p uintptr) error {
	if f := stack.RT.Free; f != nil {
		return f(p)
	}
	return core.RuntimeFree(t, p)
}

// MemGetInfoEx is rtMemGetInfoEx.
func (runtimeCalls) MemGetInfoEx(t *core.Thread, typ uint32, free, total *uint64) error {
	if f := stack.RT.MemGetInfoEx; f != nil {
		return f(typ, free, total)
	}
	return core.RuntimeMemGetInfoEx(t, typ, free, total)
}
