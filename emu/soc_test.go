package emu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Values transcribed from semantics.md §20 (platform ini files) and the
// per-family runtime limits.
func TestCatalogueMatchesSpec(t *testing.T) {
	tests := []struct {
		name                      string
		family                    string
		arch, chip                int
		ai, cube, vector, aicpu   int
		hbm, l2                   uint64
		mhz                       int
		streams, events, notifies int
		padding                   bool
	}{
		{"Ascend910B1", "A2", 2201, 5, 24, 24, 48, 6, 68719476736, 201326592, 1850, 1984, 65536, 8192, true},
		{"Ascend910B3", "A2", 2201, 5, 20, 20, 40, 6, 68719476736, 201326592, 1800, 1984, 65536, 8192, true},
		{"Ascend910B4", "A2", 2201, 5, 20, 20, 40, 6, 34359738368, 100663296, 1500, 1984, 65536, 8192, true},
		{"Ascend910B4-1", "A2", 2201, 5, 20, 20, 40, 6, 34359738368, 176160768, 1500, 1984, 65536, 8192, true},
		{"Ascend910_9362", "A3", 2201, 5, 20, 20, 40, 6, 68719476736, 176160768, 1500, 1984, 65536, 8192, true},
		{"Ascend910_9392", "A3", 2201, 5, 24, 24, 48, 6, 68719476736, 201326592, 1850, 1984, 65536, 8192, true},
		{"Ascend310P1", "310P", 2002, 4, 10, 10, 8, 8, 24000000000, 16777216, 1060, 1024, 1023, 1024, true},
		{"Ascend310P3", "310P", 2002, 4, 8, 8, 7, 7, 24000000000, 16777216, 1060, 1024, 1023, 1024, true},
		{"Ascend310B1", "310B", 3002, 7, 1, 1, 1, 4, 34359738368, 4194304, 1224, 512, 65536, 2048, true},
		{"Ascend310B4", "310B", 3002, 7, 1, 1, 1, 4, 8 << 30, 4194304, 500, 512, 65536, 2048, true},
		{"Ascend910ProB", "A1", 1001, 1, 30, 30, 0, 4, 32 << 30, 33554432, 1150, 2048, 65535, 1024, true},
		{"Ascend910PremiumA", "A1", 1001, 1, 32, 32, 0, 4, 32 << 30, 33554432, 1220, 2048, 65535, 1024, true},
		{"Ascend950DT_9591", "950", 3510, 15, 36, 36, 72, 6, 154618822656, 134217728, 1800, 1984, 65536, 65535, false},
		{"Ascend950PR_9599", "950", 3510, 15, 36, 36, 72, 6, 137438953472, 134217728, 1800, 1984, 65536, 65535, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := LookupSoC(tt.name)
			require.True(t, ok)
			assert.Equal(t, tt.name, s.Name)
			assert.Equal(t, tt.family, s.Family)
			assert.Equal(t, tt.arch, s.NpuArch)
			assert.Equal(t, tt.chip, s.ChipType)
			assert.Equal(t, tt.ai, s.AICores)
			assert.Equal(t, tt.cube, s.CubeCores)
			assert.Equal(t, tt.vector, s.VectorCores)
			assert.Equal(t, tt.aicpu, s.AICPUs)
			assert.Equal(t, tt.hbm, s.HBMBytes)
			assert.Equal(t, tt.l2, s.L2Bytes)
			assert.Equal(t, tt.mhz, s.CubeMHz)
			assert.Equal(t, tt.streams, s.MaxStreams)
			assert.Equal(t, tt.events, s.MaxEvents)
			assert.Equal(t, tt.notifies, s.MaxNotifies)
			assert.Equal(t, tt.padding, s.MallocPadding)
			assert.Equal(t, 7, s.PriorityLeast)
			assert.Equal(t, 0, s.PriorityGreatest)
		})
	}
}

func TestCatalogueInvariants(t *testing.T) {
	all := Catalogue()
	require.GreaterOrEqual(t, len(all), 28)
	seen := map[string]bool{}
	for _, s := range all {
		assert.False(t, seen[s.Name], "duplicate %s", s.Name)
		seen[s.Name] = true
		got, ok := LookupSoC(s.Name)
		assert.True(t, ok)
		assert.Equal(t, s, got)
		assert.Positive(t, s.AICores, s.Name)
		assert.Positive(t, s.SDMAEngines, s.Name)
		assert.Less(t, s.UsableHBMBytes, s.HBMBytes, s.Name)
		assert.Greater(t, s.UsableHBMBytes, s.HBMBytes/2, s.Name)
	}
	for _, name := range []string{"Ascend910B2", "Ascend910B2C", "Ascend910_9363", "Ascend910_9372",
		"Ascend910_9381", "Ascend910_9382", "Ascend910_9391", "Ascend310P5", "Ascend310P7",
		"Ascend310B2", "Ascend310B3", "Ascend910A", "Ascend910ProA", "Ascend910B"} {
		assert.True(t, seen[name], "missing %s", name)
	}
	_, ok := LookupSoC("Ascend910B9")
	assert.False(t, ok)
	// Catalogue returns a copy.
	all[0].Name = "changed"
	assert.NotEqual(t, "changed", Catalogue()[0].Name)
}

func TestUsableHBMReservation(t *testing.T) {
	b3, _ := LookupSoC("Ascend910B3")
	assert.Equal(t, uint64(61)<<30, b3.UsableHBMBytes)
	p3, _ := LookupSoC("Ascend310P3")
	assert.Equal(t, uint64(24000000000-300<<20), p3.UsableHBMBytes)
	dt, _ := LookupSoC("Ascend950DT_9591")
	assert.Equal(t, uint64(140)<<30, dt.UsableHBMBytes)
}
