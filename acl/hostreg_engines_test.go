package acl

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/npuemu/npuemu/abi"
)

// aclrtHostMemMapCapabilities: the engines npuemu runs reach registered
// host memory; RDMA, DVPP, UDMA and CCU are not modelled.
func TestHacEnginesReachHostMemory(t *testing.T) {
	reach := map[uint32]bool{
		abi.ACL_RT_HAC_TYPE_STARS: true, abi.ACL_RT_HAC_TYPE_AICPU: true, abi.ACL_RT_HAC_TYPE_AIC: true,
		abi.ACL_RT_HAC_TYPE_AIV: true, abi.ACL_RT_HAC_TYPE_PCIEDMA: true, abi.ACL_RT_HAC_TYPE_SDMA: true,
	}
	for hac := uint32(0); hac <= abi.ACL_RT_HAC_TYPE_CCU; hac++ {
		assert.Equal(t, reach[hac], hacEngines[hac].ReachesHostMemory(), "aclrtHacType %d", hac)
	}
}
