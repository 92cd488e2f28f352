// Package emu models the physical node: a catalogue of Ascend SoCs (core
// counts, HBM size, stream/event/notify limits, priority range), a Node of N
// devices of one SoC, each Device with its HBM (a reserved sparse VA range
// with exact capacity accounting), its virtual clock and its task scheduler
// (a tsfw.Device), and the configuration that chooses all of this
// (NPUEMU_CONFIG, NPUEMU_DEVICES, NPUEMU_SOC).
//
// emu knows nothing of ACL or HAL semantics: it never imports acl, hal,
// libfake or purego. Devices cost nothing until they are opened.
package emu
