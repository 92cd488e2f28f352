package acl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
)

func TestCheckSoCFollowsTheSupportColumn(t *testing.T) {
	setup(t, map[string]string{"NPUEMU_SOC": "Ascend310P3"})
	err := core.CheckSoC("aclrtStreamAbort") // Y/Y/Y/N/N/N
	requireCode(t, err, abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	assert.Contains(t, err.Error(), "Ascend310P3")
	assert.Contains(t, err.Error(), "950/A3/A2")
	require.NoError(t, core.CheckSoC("aclmdlRICaptureBegin"), "Y/Y/Y/N/Y/N: the 310P has it")
	require.NoError(t, core.CheckSoC("aclrtMalloc"), "documented for every SoC: not gated")
	require.NoError(t, core.CheckSoC("aclrtCreateStreamConfigHandle"), "listed for no SoC: the support table decides")

	setup(t, map[string]string{"NPUEMU_SOC": "Ascend950PR_9599"})
	require.NoError(t, core.CheckSoC("aclrtCntNotifyCreate"), "950 only")
	requireCode(t, core.CheckSoC("aclrtGetMemUsageInfo"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT) // N/Y/Y/Y/Y/Y
}

// The families of the generated table are the emulator's family names.
func TestSoCFamiliesAreEmuFamilies(t *testing.T) {
	assert.Equal(t, []string{emu.Family950, emu.FamilyA3, emu.FamilyA2, emu.Family310B, emu.Family310P, emu.FamilyA1}, abi.SoCFamilies[:])
}
