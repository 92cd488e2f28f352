package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
)

// NPUEMU_CPUPROFILE=FILE (docs/configuration.md, "Host threads"): a Go CPU
// profile of the emulator from the library's load to aclFinalize, for
// `go tool pprof libnpuemu_core.so FILE`. "%p" in FILE becomes the process
// id. It samples the Go code only: time in the program's own C code and in
// the front library shows as C frames at most. A developer's tool, for
// hosts without perf (the many-core column of docs/benchmarks.md).
const cpuProfileEnv = "NPUEMU_CPUPROFILE"

var cpuProfile struct {
	sync.Mutex
	f *os.File
}

func init() {
	name := os.Getenv(cpuProfileEnv)
	if name == "" {
		return
	}
	name = strings.ReplaceAll(name, "%p", strconv.Itoa(os.Getpid()))
	f, err := os.Create(name)
	if err == nil {
		if err = pprof.StartCPUProfile(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "npuemu: %s: %v; no profile is written\n", cpuProfileEnv, err)
		return
	}
	cpuProfile.f = f
}

// stopCPUProfile ends the profile and closes its file (aclFinalize); later
// calls do nothing.
func stopCPUProfile() {
	cpuProfile.Lock()
	defer cpuProfile.Unlock()
	if cpuProfile.f == nil {
		return
	}
	pprof.StopCPUProfile()
	cpuProfile.f.Close()
	cpuProfile.f = nil
}
