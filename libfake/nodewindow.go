package main

/*
#include <stdint.h>
#include "npuemu/node_format.h"
extern uintptr_t npu_node_window_base;
*/
import "C"

import "github.com/npuemu/npuemu/emu"

// The window constants of node_format.h must be emu's.
var (
	_ = [1]struct{}{}[C.NPUEMU_NODE_WINDOW_BASE-uint64(emu.NodeWindowBase)]
	_ = [1]struct{}{}[C.NPUEMU_NODE_WINDOW_SIZE-uint64(emu.NodeWindowSize)]
)

// The library always shares the node directory with the other processes
// of the machine (docs/node.md).
func init() {
	emu.AdoptNodeWindow(uintptr(C.npu_node_window_base))
	emu.UseNodeDirByDefault()
}
