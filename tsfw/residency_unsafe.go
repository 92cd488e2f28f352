package tsfw

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPU returns the CPU time thread tid of this process has run: its
// per-thread CPU clock (Linux: MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)),
// which counts the slice it may be running now.
func threadCPU(tid int32) (time.Duration, bool) {
	clock := ^tid<<3 | 6 // CPUCLOCK_PERTHREAD_MASK | CPUCLOCK_SCHED
	var ts syscall.Timespec
	_, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(clock), uintptr(unsafe.Pointer(&ts)), 0)
	if e != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
