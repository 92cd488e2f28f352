package acl

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/npuemu/npuemu/abi"
)

// aclrtHostMemMapCapabilities passes hacType to halHostRegisterCapabilities
// and returns its answer unchanged: the two enums must be numbered alike
// (the engines themselves are decoded by hal, TestAccEnginesReachHostMemory).
func TestHacTypesAreDriverAccModules(t *testing.T) {
	pairs := [][2]uint32{
		{abi.ACL_RT_HAC_TYPE_STARS, abi.DRV_ACC_MODULE_TYPE_STARS},
		{abi.ACL_RT_HAC_TYPE_AICPU, abi.DRV_ACC_MODULE_TYPE_AICPU},
		{abi.ACL_RT_HAC_TYPE_AIC, abi.DRV_ACC_MODULE_TYPE_AIC},
		{abi.ACL_RT_HAC_TYPE_AIV, abi.DRV_ACC_MODULE_TYPE_AIV},
		{abi.ACL_RT_HAC_TYPE_PCIEDMA, abi.DRV_ACC_MODULE_TYPE_PCIEDMA},
		{abi.ACL_RT_HAC_TYPE_RDMA, abi.DRV_ACC_MODULE_TYPE_RDMA},
		{abi.ACL_RT_HAC_TYPE_SDMA, abi.DRV_ACC_MODULE_TYPE_SDMA},
		{abi.ACL_RT_HAC_TYPE_DVPP, abi.DRV_ACC_MODULE_TYPE_DVPP},
		{abi.ACL_RT_HAC_TYPE_UDMA, abi.DRV_ACC_MODULE_TYPE_UDMA},
		{abi.ACL_RT_HAC_TYPE_CCU, abi.DRV_ACC_MODULE_TYPE_CCU},
	}
	for _, p := range pairs {
		assert.Equal(t, p[1], p[0], "aclrtHacType %d", p[0])
	}
	assert.Equal(t, uint32(abi.DRV_ACC_MODULE_TYPE_MAX), uint32(abi.ACL_RT_HAC_TYPE_CCU+1))
	assert.Equal(t, uint32(abi.HOST_MEM_MAP_SUPPORTED), uint32(abi.ACL_RT_HOST_MEM_MAP_SUPPORTED))
	assert.Equal(t, uint32(abi.HOST_MEM_MAP_NOT_SUPPORTED), uint32(abi.ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED))
}
