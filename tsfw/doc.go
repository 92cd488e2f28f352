// Package tsfw models the task-scheduler firmware of one device: task
// descriptors (SQEs), one runtime submission queue (RTSQ) ring per stream
// with back-pressure when full, a strict-priority arbiter, dispatch to the
// engines (SDMA for copies and memsets), the event hardware, and the
// completion path that wakes waiters. Durations come from a cost model on
// the device's virtual clock, so timestamps are deterministic.
//
// tsfw knows nothing of ACL or HAL: it never imports acl, hal, libfake or
// purego, and names no API enum or code. Errors are abi.DevError values of
// the device model's own kinds (a task abort, an AI Core exception, an SDMA
// error, a wait timeout, ...); the API layers convert a kind to the code a
// real runtime returns, through the one table of abi/deverr.go. The
// counting-notify modes are tsfw's own (CntRecordMode, CntWaitMode), which
// acl decodes from aclrtCntNotify*Mode.
//
// # Queues and the arbiter
//
// A Queue is a ring of Task values that grows by doubling up to
// Config.QueueDepth and then stays, so the steady path allocates nothing.
// Submit blocks only while the ring is full: it first runs the queue's
// kernels itself for a while (Queue.spinSpace), then waits on a condition
// variable. The tasks of one queue run strictly one after another.
//
// A kernel submitted to a queue that already holds two tasks or more (the
// inbox opens with the second: short.go) takes a fast path (inbox.go): it
// is stamped and appended to the queue's inbox under the queue's own
// mutex, without Device.mu, and the device side moves the
// inbox into the ring when the queue's head completes. Runs of one-block
// kernels are then executed by one lane as a chain (chain.go), or by the
// submitter itself when it waits for ring space (an own chain).
//
// The arbiter is a function, not a goroutine: it runs under Device.mu in
// whichever goroutine changed the state — the submitter when its task
// becomes a queue's head, an SDMA engine or host goroutine when a task
// completes, the device's scheduler goroutine when kicked from outside
// (another device's event, a pacing timer; the goroutine starts with the
// first kick, so a device nothing kicks runs none). It takes queues in strict
// priority order (0 first) and, within one priority, in the submission
// order of their head tasks; a head runs when it is ready: its event wait
// is satisfied and, for copies and memsets, an SDMA engine is free.
// Records, waits and resets complete inline; since that may expose a more
// urgent head, the pass then restarts from priority 0. Copies go to one of
// Config.SDMAEngines worker goroutines (real parallel memmoves; each
// starts with its first job, so a process that queues no copy runs none);
// host tasks each get a goroutine. So the submitting thread never waits for a
// goroutine handoff: it at most hands a descriptor to an idle engine, and
// an event record on an idle queue costs no handoff at all. Idle engines
// spin a few Gosched rounds (a task often follows at once) then park on
// their channel.
//
// A copy that faults (bad address) is caught through
// debug.SetPanicOnFault and becomes the queue's asynchronous error
// (DevSDMAError, ACL_ERROR_RT_SYS_DMA at the API); a host task's error or panic does the same. The
// first asynchronous error is returned, and cleared, by the next
// Synchronize of the queue or device.
//
// # Completion and waiting
//
// Each queue counts submitted and completed tasks atomically, so
// Synchronize of an idle queue and Query are two atomic loads. A
// Synchronize that must wait polls for up to 20 µs (poll: no
// runtime.Gosched, which hands a locked thread off), then parks on a
// channel signalled by the completion that reaches its target; a timeout
// is a timer.
//
// # Failures, stop and abort (builtin_ctl.go)
//
// A failed task is handed to the process-wide hook of SetTaskErrorHook (the
// acl layer's exception reporting) on a goroutine of its own before it is
// retired, so a Synchronize that returns the error returns after the hook.
// Queue.Stop makes a queue drop its queued tasks and refuse new ones;
// Queue.Abort drops them and releases parked Synchronize calls with an
// error, leaving the queue usable. Host tasks that wait for something
// outside the queue select on Queue.Cancelled so that neither, nor Destroy
// or Close, can strand them.
//
// # Built-in tasks (builtin.go, builtin_random.go)
//
// Value writes, reductions and random numbers (Philox4x32-10) run on SDMA
// engines; a value wait is a host task that parks until its word satisfies
// the condition, re-checking on every completion of the device, after
// every synchronous copy, and on a capped backoff timer.
//
// # Events
//
// Records of an event are numbered at submission. A wait targets the
// latest record submitted before it (none: the wait is a no-op) and is
// satisfied once that record, or a later one, completes; a reset consumes
// the records completed so far, so later waits need a newer record. An
// event never recorded is Complete. A wait may name an event of another
// device: the blocked device registers itself on the event and the record's
// completion kicks its scheduler goroutine. Ids come from a pool of
// Config.MaxEvents; a destroyed event returns its id once its latest record
// has completed.
//
// Events that need no hardware id (NewEventUnpooled) take their id from a
// separate counter above the pool's range.
//
// # Notifies
//
// Notify and CntNotify (notify.go) share the notify-id pool of
// Config.MaxNotifies. A notify is a flag: a record sets it, a wait blocks
// until it is set and clears it, so one record releases one wait. A
// counting notify is a 32-bit counter that records set, add, or and and
// into and that a wait compares (count < value, ==, >, >=, masked equal),
// optionally clearing it on release. Records and waits may name a notify of
// another device; waiters register on the notify and a change kicks their
// device, as for events. For virtual time a notify wait pairs with the
// record submitted before it and not yet paired (a counting-notify wait
// with the latest record), if any.
//
// A wait (event or notify) may carry a timeout: when it first blocks a
// timer is armed that kicks the scheduler at the deadline, and a wait
// still blocked then completes with DevWaitTimeout (ACL_ERROR_RT_WAIT_TIMEOUT) as the
// queue's asynchronous error; later tasks run.
//
// Destroy(false) and Close drop tasks that have not started; they count as
// completed, and a dropped record completes its event, so no waiter is
// stranded. Close first runs everything that can still run, then drops what
// is left once nothing is in flight (typically a wait for a record that will
// never come).
//
// # Virtual time
//
// Every task gets its virtual start and end at submission, under Device.mu,
// from state that depends only on the submission sequence:
//
//	start = max(end of the queue's previous task,
//	            host time (below),
//	            end of the record a wait targets, if any,
//	            free time of the earliest-free SDMA timeline, for copies/memsets)
//	end   = start + cost
//
// with one virtual timeline per SDMA engine (the chosen one, lowest index on
// ties, becomes busy until end). Host time is what the host has observed:
// it advances to the end of what a Synchronize (queue, event) waited for,
// and to the end of each synchronous CopyNow/MemsetNow, which run on the
// caller's goroutine but occupy an SDMA timeline like a queued copy. A
// record's timestamp is its task's end. Device.Now is the largest end of
// the completed tasks. Hence a single-threaded program yields the same
// timestamps on every run, whatever the real scheduling. A wait on another
// device's event takes that device's virtual time as is (the clocks are
// not aligned); a wait released by a record newer than its target (after a
// reset) keeps the time computed at submission.
//
// A kernel's start also waits for AI Cores held outside the Device when
// Config.Cores is set (share.go: other processes of a node directory,
// first come first served); an arbiter that reports no other holder
// changes nothing.
//
// Cost model (CostModel; zero fields take DefaultCost's):
//
//	copy     TaskOverhead + bytes / bandwidth of the direction (H2H, H2D, D2H, D2D, P2P)
//	copy 2D  TaskOverhead + width*height / bandwidth of the direction
//	memset   TaskOverhead + bytes / MemsetBytesPerSec
//	other    TaskOverhead (record, wait, reset, host task: the host
//	         function's real duration is not modelled)
//
// Pacing 0 (default) runs as fast as possible. Pacing p > 0 holds the
// completion of a task ending at virtual time v until the wall clock is at
// least device creation + v/p (engines and host goroutines sleep; inline
// tasks arm a timer that kicks the scheduler). Nothing else reads the wall
// clock except timeouts, which is why no clock is injected: virtual time is
// computed, never measured.
//
// # Lock order
//
// Device.mu → Event.mu → Device.evMu; Device.vw.mu (value waits) is a
// leaf taken under Device.mu. Event.mu is taken under the mutex of
// any device (a foreign event in a cross-device wait) but no device mutex is
// ever taken while holding an Event.mu, and two device mutexes are never
// held together: a device reaches another only through its non-blocking
// doorbell (kick).
package tsfw
