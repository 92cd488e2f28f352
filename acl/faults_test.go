package acl

import (
	"testing"

	"github.com/npuemu/npuemu/rt/core"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFaults(t *testing.T) {
	rules, err := core.ParseFaults("oom:nth=3; aicore@1:kernel=vadd_f32,every=2 ;uce:addr=0x1000;sdma:p=50,seed=7")
	require.NoError(t, err)
	require.Len(t, rules, 4)
	assert.Equal(t, core.FaultOOM, rules[0].Kind)
	assert.Equal(t, uint64(3), rules[0].Nth)
	assert.Equal(t, int32(-1), rules[0].Dev)
	assert.Equal(t, int32(1), rules[1].Dev)
	assert.Equal(t, "vadd_f32", rules[1].Kernel)
	assert.Equal(t, uint64(2), rules[1].Every)
	assert.Equal(t, uintptr(0x1000), rules[2].Addr)
	assert.Equal(t, uint64(64), rules[2].Length, "uce length defaults to 64 bytes")
	assert.Equal(t, uint64(1), rules[2].Nth, "no trigger: the first event")

	for _, bad := range []string{"boom", "oom:nth", "oom:x=1", "oom@x", "sdma:kernel=k", "oom:p=200"} {
		_, err := core.ParseFaults(bad)
		assert.Error(t, err, bad)
	}
	none, err := core.ParseFaults("")
	require.NoError(t, err)
	assert.Empty(t, none)
}

// The same seed fires on the same events; nth and every count exactly.
func TestFaultTriggers(t *testing.T) {
	fire := func(spec string, n int) []int {
		rules, err := core.ParseFaults(spec)
		require.NoError(t, err)
		var got []int
		for i := 1; i <= n; i++ {
			if rules[0].Hit() {
				got = append(got, i)
			}
		}
		return got
	}
	assert.Equal(t, []int{3}, fire("oom:nth=3", 10))
	assert.Equal(t, []int{4, 8}, fire("oom:every=4", 10))
	a, b := fire("oom:p=30,seed=9", 200), fire("oom:p=30,seed=9", 200)
	assert.Equal(t, a, b)
	assert.InDelta(t, 60, len(a), 30)
	assert.Empty(t, fire("oom:p=0.0001,seed=1", 10))
}
