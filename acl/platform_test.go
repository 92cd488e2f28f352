package acl

import (
	"testing"

	"github.com/npuemu/npuemu/emu"
)

// The acl tests' platform (emu.Platform): the nodes the tests create get
// acl's own per-module accounting, as libfake's do, and no kernel host or
// symbol lookup unless a test gives its fakes through the same value
// (setupPlatform, testPlatform) before its node is created.
func init() { emu.UsePlatform(testPlatform(emu.Platform{})) }

// testPlatform is p with the accounting libfake's platform has.
func testPlatform(p emu.Platform) emu.Platform {
	p.NoteUsage = NoteDeviceUsage
	return p
}

// usePlatform makes the next process node get p (with the accounting)
// until tb ends.
func usePlatform(tb testing.TB, p emu.Platform) {
	emu.UsePlatform(testPlatform(p))
	tb.Cleanup(func() { emu.UsePlatform(testPlatform(emu.Platform{})) })
}

// setupPlatform is setup whose node is created with the fakes of p.
func setupPlatform(t *testing.T, env map[string]string, p emu.Platform) *Thread {
	t.Helper()
	usePlatform(t, p)
	return setup(t, env)
}
