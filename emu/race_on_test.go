//go:build race

package emu

// raceEnabled: the race detector's shadow memory covers the node window's
// fixed address (0x200000000000), so tests that map it skip.
const raceEnabled = true
