// Package emu models the physical node: a catalogue of Ascend SoCs (core
// counts, HBM size, stream/event/notify limits, priority range), a Node of N
// devices of one SoC, each Device with its HBM (a reserved sparse VA range
// with exact capacity accounting), its virtual clock and its task scheduler
// (a tsfw.Device), and the configuration that chooses all of this
// (NPUEMU_CONFIG, NPUEMU_DEVICES, NPUEMU_SOC; see docs/configuration.md).
//
// emu knows nothing of ACL or HAL semantics: it never imports acl, hal,
// libfake or purego, and names no ACL enum or code. Its errors are
// abi.DevError values of the device model's own kinds (no memory, bad free,
// device setup failed, ...), which the API layers convert through the one
// table of abi/deverr.go (the VMM, shared memory and host registration
// meet the driver's kinds: bad handle, not found, in use, busy). Devices
// cost nothing until they are opened.
//
// Memory. HBM addresses are real addresses of this process: each device's
// range is an anonymous mapping (MAP_NORESERVE, huge pages advised), so a
// device pointer can be read and written by host code and every copy —
// host↔device, device↔device, peer — is a plain memmove. The mappings lie
// outside the Go heap: hold them as uintptr and, where a Go slice over one is
// needed, convert in a *_unsafe.go file. Ranges of different devices, the
// pinned host memory (HostMem) and the ordinary heap never overlap, so
// Node.FindDevice and HostMem.Find classify any pointer by address. Node.Close
// unmaps everything: pointers into a closed node must not be touched.
//
// Locking. Node.mu serialises opening devices and Close; opened devices are
// published through atomic pointers, so Device, Opened and FindDevice take no
// lock after the first open. HBM and HostMem each have one RWMutex (Find
// takes it shared). Lock order: Node.mu, then VMM.mu, then an HBM's or
// HostMem's mutex (only Close takes Node.mu with another; VMM.mu is held
// over an HBM's mutex when a block is exported). The VMM (reservations,
// physical handles, shared and registered memory) is docs/vmm.md. Node.mu is held while a device's tsfw.Device is
// started or closed; tsfw never calls back into emu.
package emu
