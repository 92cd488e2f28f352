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

var workMu sync.Mutex

// Start starts a goroutine under mu and calls work under mu: the call is an
// edge mu -> workMu, the goroutine (which holds nothing of Start's) is not.
func Start() {
	mu.Lock()
	go work()
	go func() { work() }()
	mu.Unlock()
}

// Run calls work under mu.
func Run() {
	mu.Lock()
	work()
	mu.Unlock()
}

var otherMu sync.Mutex

// StartOnly only starts work's goroutine under otherMu: no edge.
func StartOnly() {
	otherMu.Lock()
	go work()
	otherMu.Unlock()
}

func work() {
	workMu.Lock()
	workMu.Unlock()
}
