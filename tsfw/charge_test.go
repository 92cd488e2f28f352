package tsfw

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

func TestChargeNow(t *testing.T) {
	cost := CostModel{TaskOverhead: 2 * time.Microsecond, H2DBytesPerSec: 1e9}
	run := func() []time.Duration {
		d := newDev(t, Config{SDMAEngines: 2, Cost: cost})
		var clock []time.Duration
		require.NoError(t, d.ChargeNow(0))
		clock = append(clock, d.Now())
		require.NoError(t, d.ChargeNow(5*time.Millisecond))
		clock = append(clock, d.Now())
		// Charges are sequential for the host even with a second SDMA
		// timeline free: the host observed the first one's end.
		require.NoError(t, d.ChargeNow(3*time.Millisecond))
		clock = append(clock, d.Now())
		// A synchronous copy issued next starts after the charges.
		src, s := buf(t, 1000)
		_, ds := buf(t, 1000)
		src[0] = 1
		require.NoError(t, d.CopyNow(ds, s, 1000, HostToDevice))
		clock = append(clock, d.Now())
		return clock
	}
	got := run()
	ct := CopyTask(0, 0, 1000, HostToDevice)
	copyCost := newDev(t, Config{Cost: cost}).cost.cost(&ct)
	require.Positive(t, copyCost)
	assert.Equal(t, []time.Duration{0, 5 * time.Millisecond, 8 * time.Millisecond, 8*time.Millisecond + copyCost}, got)
	assert.Equal(t, got, run(), "deterministic")

	d := newDev(t, Config{})
	assert.ErrorIs(t, d.ChargeNow(-time.Nanosecond), abi.Err(abi.ACL_ERROR_INVALID_PARAM))
	assert.Zero(t, d.Now())
}
