package tsfw

// Gate is what the sanitizer needs of the engines while it tracks a plain
// kernel's pages (acl/kernel_track.go, docs/sanitizer.md): every copy,
// memset and engine function, queued or synchronous, holds it shared
// while it runs, so that none touches device pages while a tracked launch
// has them closed. Enter may give up waiting after a bound (the tracker
// copes with a copy that touches its pages; it only loses precision).
type Gate interface {
	Enter()
	Leave()
}

// engineGate is set once, before any device is opened (SetEngineGate);
// nil (the default) costs runEngineTask one predictable branch.
var engineGate Gate

// SetEngineGate makes the engines hold g while they run. It must be called
// before any device is opened.
func SetEngineGate(g Gate) { engineGate = g }
