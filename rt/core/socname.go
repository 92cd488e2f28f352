package core

import (
	"bytes"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/stack"
)

// The SoC name the runtime reports (rtGetSocVersion, aclrtGetSocName) is
// the driver's: halGetSocVersion of device 0, asked through the driver's
// exported symbol (rt/stack). The vendor's runtime asks once, when it
// boots, and keeps the name; npuemu does the same: the first call that
// needs the name asks, and every later one (rtGetSocVersion and
// aclrtGetSocName alike) reports the kept answer, so an interposed driver
// is asked once per process (once per node: a new node, after aclFinalize
// and a new configuration, asks again). A failed ask is not kept: the next
// call asks again. The name only reports: the SoC npuemu emulates (its
// family, gating, figures) is the node's, whatever a hook answers.

// socVersionLen is the buffer the runtime passes halGetSocVersion
// (hal-api.md: 128 bytes).
const socVersionLen = 128

type keptName struct {
	node *emu.Node
	name string
}

var socName atomic.Pointer[keptName]

// SocName is the SoC name the driver reported (asked once per node).
func SocName(t *Thread) (string, error) {
	const fn = "aclrtGetSocName"
	n, err := TheNode()
	if err != nil {
		return "", abi.Wrapf(err, "%s: emulator configuration", fn)
	}
	if k := socName.Load(); k != nil && k.node == n {
		return k.name, nil
	}
	buf := make([]byte, socVersionLen)
	if err := stack.GetSocVersion(0, buf); err != nil {
		return "", abi.Errorf(abi.RTCodeOf(err), "%s: halGetSocVersion: %s", fn, abi.MessageOf(err))
	}
	name := string(buf)
	if i := bytes.IndexByte(buf, 0); i >= 0 {
		name = string(buf[:i])
	}
	socName.Store(&keptName{node: n, name: name})
	return name, nil
}
