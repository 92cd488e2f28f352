package acl

import (
	"testing"

	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
)

// The acl tests' platform (emu.Platform): the nodes the tests create get
// no kernel host or symbol lookup unless a test gives its fakes through
// the same value (setupPlatform, usePlatform) before its node is created.

// usePlatform makes the next process node get p until tb ends.
func usePlatform(tb testing.TB, p emu.Platform) {
	emu.UsePlatform(p)
	tb.Cleanup(func() { emu.UsePlatform(emu.Platform{}) })
}

// setupPlatform is setup whose node is created with the fakes of p.
func setupPlatform(t *testing.T, env map[string]string, p emu.Platform) *core.Thread {
	t.Helper()
	usePlatform(t, p)
	return setup(t, env)
}
