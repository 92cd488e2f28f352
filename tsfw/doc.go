// Package tsfw models the task-scheduler firmware of one device: task
// descriptors (SQEs), one runtime submission queue (RTSQ) ring per stream
// with back-pressure when full, a strict-priority arbiter, dispatch to the
// engines (SDMA for copies and memsets), the event hardware, and the
// completion path that wakes waiters. Durations come from a cost model on
// the device's virtual clock, so timestamps are deterministic.
//
// tsfw knows nothing of ACL or HAL: it never imports acl, hal, libfake or
// purego.
package tsfw
