package tsfw

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// Host threads. The emulated device has many more cores (40 vector cores
// on an Atlas A2) than a CI runner has CPUs, and a core granted to a
// kernel is a share of the virtual clock, not a host thread: a kernel of
// 40 blocks granted 40 cores lasts ceil(40/40) waves on the virtual clock
// whatever runs it. On the host, its blocks are run by at most HostThreads
// lanes (plus a thread waiting for it), which take block numbers from a
// shared counter; more lanes than CPUs only make the OS time-slice them,
// and each lane that parks and wakes costs a futex round trip. Split bulk
// copies use the same number of threads.
//
// The number is NPUEMU_THREADS when set to a positive integer, else the
// CPUs this process may use: the CPUs it may run on (runtime.NumCPU: the
// affinity mask at start, so `taskset -c 0,1` means 2), or fewer when its
// cgroup's CPU limit is lower (a container given 2 CPUs of a 64-CPU
// runner: 2, not 64 lanes polling on a 2-CPU quota). The Go runtime's
// default GOMAXPROCS is that limit (rounded up, at least 2), so it is read
// from there while the GOMAXPROCS variable is unset; the lanes are counted
// once, before the first lane raises GOMAXPROCS (addSpareP). Decision: no
// NUMA placement; the lanes are OS threads the kernel's scheduler
// spreads, and one process that wants fewer sets NPUEMU_THREADS (or
// taskset).

// EnvThreads is the environment variable that sets HostThreads.
const EnvThreads = "NPUEMU_THREADS"

// MaxHostThreads bounds NPUEMU_THREADS.
const MaxHostThreads = 1024

var hostThreads struct {
	once    sync.Once
	n, ncpu int
	def     int  // cpusUsable's answer
	set     bool // NPUEMU_THREADS gave n
}

// HostThreads returns how many host threads run kernel blocks and split
// copies: NPUEMU_THREADS if it is an integer in 1..1024, else the CPUs
// the process may use (cpusUsable).
func HostThreads() int {
	hostThreads.once.Do(func() {
		h := &hostThreads
		h.ncpu = runtime.NumCPU()
		h.def = cpusUsable(h.ncpu, runtime.GOMAXPROCS(0), os.Getenv("GOMAXPROCS"))
		v := os.Getenv(EnvThreads)
		h.n = parseThreads(v, h.def)
		_, h.set = validThreads(v)
	})
	return hostThreads.n
}

// HostThreadsReason says where HostThreads' number comes from, for
// tools (`npuemu info`).
func HostThreadsReason() string {
	n := HostThreads()
	return threadsReason(n, hostThreads.ncpu, hostThreads.def, hostThreads.set)
}

// threadsReason: n threads, ncpu CPUs in the affinity mask, def the CPUs
// usable, set whether NPUEMU_THREADS gave n.
func threadsReason(n, ncpu, def int, set bool) string {
	switch {
	case set:
		return EnvThreads + "=" + strconv.Itoa(n)
	case def < ncpu:
		return "this process's CPU limit (cgroup quota): " + strconv.Itoa(def) + " of the " + strconv.Itoa(ncpu) + " CPUs it may run on; " + EnvThreads + " sets another number"
	default:
		return "the CPUs this process may run on; " + EnvThreads + " sets another number"
	}
}

// cpusUsable returns the CPUs a process may use: ncpu (its affinity
// mask), or procs (the runtime's GOMAXPROCS) when lower and env (the
// GOMAXPROCS variable) is empty: then procs is the runtime's default,
// which is the cgroup's CPU limit where that is below the CPUs. A
// GOMAXPROCS the user set bounds the Go code, not the kernels' threads.
func cpusUsable(ncpu, procs int, env string) int {
	if env == "" && procs > 0 && procs < ncpu {
		return procs
	}
	return ncpu
}

// parseThreads returns the thread count v asks for, or def when v is not
// an integer in 1..MaxHostThreads (emu.LoadConfig reports such a value as
// an error before any device starts).
func parseThreads(v string, def int) int {
	if n, ok := validThreads(v); ok {
		return n
	}
	return max(def, 1)
}

// validThreads returns the count v asks for and whether it is an integer
// in 1..MaxHostThreads.
func validThreads(v string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	return n, err == nil && n >= 1 && n <= MaxHostThreads
}

// A spare P. A lane runs a C kernel's blocks inside a cgo call, and the Go
// runtime counts a P whose thread is in a cgo call as in a system call:
// when every P is in one, its monitor thread (sysmon) takes them back
// every 20 µs or so, waking another thread to hold each, which finds no
// work and parks again. With as many lanes as Ps (the default, HostThreads
// = the CPUs = GOMAXPROCS) a kernel using every lane kept the runtime's
// threads waking thousands of times a second, each wake-up preempting a
// lane on a CPU it needs (2 CPUs, a 40-block vector add: ~10 000
// involuntary switches a second). While one P is idle the monitor leaves
// a P in a cgo call alone for 10 ms and sleeps longer, so the first lane
// to start gives the runtime one P more than lanes, unless GOMAXPROCS is
// set in the environment (the user's choice stands). A P beyond the CPUs
// costs nothing while idle; Go code can then run on one thread more than
// there are CPUs. Setting GOMAXPROCS ends the runtime's own updates of it
// (CPU-limit changes while the process runs).
var spareP sync.Once

// addSpareP raises GOMAXPROCS to spareProcs' answer.
func addSpareP() {
	cur := runtime.GOMAXPROCS(0)
	if n := spareProcs(os.Getenv("GOMAXPROCS"), cur, HostThreads()); n != cur {
		runtime.GOMAXPROCS(n)
	}
}

// spareProcs returns the GOMAXPROCS for a process with lanes lanes: cur,
// or cur+1 when cur leaves no P beyond the lanes and env (the GOMAXPROCS
// variable) is empty. (One more, not lanes+1: a GOMAXPROCS below the
// CPUs comes from a CPU limit of the process's cgroup, which stands.)
func spareProcs(env string, cur, lanes int) int {
	if env != "" || cur > lanes {
		return cur
	}
	return cur + 1
}
