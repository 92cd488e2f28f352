package hal

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/npuemu/npuemu/abi"
)

// halHostMemMapCapabilities: the engines npuemu runs reach registered host
// memory; RDMA, DVPP, UDMA and CCU are not modelled.
func TestAccEnginesReachHostMemory(t *testing.T) {
	reach := map[uint32]bool{
		abi.DRV_ACC_MODULE_TYPE_STARS: true, abi.DRV_ACC_MODULE_TYPE_AICPU: true, abi.DRV_ACC_MODULE_TYPE_AIC: true,
		abi.DRV_ACC_MODULE_TYPE_AIV: true, abi.DRV_ACC_MODULE_TYPE_PCIEDMA: true, abi.DRV_ACC_MODULE_TYPE_SDMA: true,
	}
	for acc := uint32(0); acc < abi.DRV_ACC_MODULE_TYPE_MAX; acc++ {
		assert.Equal(t, reach[acc], accEngines[acc].ReachesHostMemory(), "drvAccModuleType %d", acc)
	}
}
