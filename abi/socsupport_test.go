package abi

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSoCSupport(t *testing.T) {
	set, gated := SoCSupport("aclrtCntNotifyCreate") // Y/N/N/N/N/N
	assert.True(t, gated)
	assert.True(t, set.Has("950"))
	assert.False(t, set.Has("A2"))
	assert.Equal(t, "950", set.String())
	_, gated = SoCSupport("aclrtMalloc")
	assert.False(t, gated, "documented for every family")
	set, _ = SoCSupport("aclrtActiveStream") // Y/N/Y/Y/Y/Y
	assert.Equal(t, "950/A2/310B/310P/A1", set.String())
	assert.False(t, set.Has("A3"))
	assert.False(t, set.Has("no such family"))
	assert.Equal(t, "none", SoCSet(0).String())
}

// TestRTSoCSupportFollowsACLCallers: an rt* function is gated where all its
// ACL callers (acl-to-rt.tsv) are, with the union of their sets.
func TestRTSoCSupportFollowsACLCallers(t *testing.T) {
	rt, gated := SoCSupport("rtCmoAsync")
	assert.True(t, gated, "aclrtCmoAsync, its only caller, is Y/Y/Y/N/N/N")
	acl, _ := SoCSupport("aclrtCmoAsync")
	assert.Equal(t, acl, rt)
	rt, _ = SoCSupport("rtCntNotifyCreateServer")
	acl, _ = SoCSupport("aclrtCntNotifyCreate")
	assert.Equal(t, acl, rt)
	_, gated = SoCSupport("rtMalloc")
	assert.False(t, gated, "its callers (aclrtMalloc, ...) are documented for every family")
	_, gated = SoCSupport("rtSetDevice")
	assert.False(t, gated)
}
