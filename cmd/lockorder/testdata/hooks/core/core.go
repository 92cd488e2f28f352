// Package core is a fixture: it reaches a family only through a table of
// function fields that the family fills.
package core

import "sync"

// Hooks is the table.
type Hooks struct{ Drop func() }

// H is filled by package fam.
var H Hooks

var mu sync.Mutex

// Destroy calls the hook under mu.
func Destroy() {
	mu.Lock()
	H.Drop()
	mu.Unlock()
}
