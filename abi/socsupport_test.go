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
