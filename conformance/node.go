package conformance

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
)

// Every case runs on a node directory of its own (docs/node.md): cases run
// in parallel and must not see each other's device memory. A case that
// sets NPUEMU_NODE itself chooses its node; the processes a case spawns
// inherit its node, which is how the multi-process cases share one.
var nodeSeq atomic.Int64

// privateNode returns a fresh node directory for c ("" when c names one).
func privateNode(c Case) string {
	for _, kv := range c.Env {
		if strings.HasPrefix(kv, "NPUEMU_NODE=") {
			return ""
		}
	}
	return fmt.Sprintf("/dev/shm/npuemu-case-%d-%d", os.Getpid(), nodeSeq.Add(1))
}
