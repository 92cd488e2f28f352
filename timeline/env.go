package timeline

import (
	"fmt"
	"os"
	"sync"
)

var envMu sync.Mutex
var envPath string // guarded by envMu: the file NPUEMU_TIMELINE names ("%p" expanded when written)

// FromEnv attaches a recorder when NPUEMU_TIMELINE names a file; the
// library calls it once when it is loaded, before any device exists.
func FromEnv() {
	name := os.Getenv(Env)
	if name == "" {
		return
	}
	envMu.Lock()
	envPath = name
	envMu.Unlock()
	if Current() == nil {
		Attach(NewRecorder())
	}
}

// Flush writes the attached recorder to the NPUEMU_TIMELINE file, if one
// is set (aclFinalize and process exit call it; a later flush rewrites the
// file with everything recorded so far). Errors are reported on stderr
// once: the timeline never fails the program.
func Flush() {
	envMu.Lock()
	defer envMu.Unlock()
	r := Current()
	if envPath == "" || r == nil {
		return
	}
	if err := r.WriteFile(ExpandPath(envPath), os.Getenv(HostEnv) != "0"); err != nil {
		fmt.Fprintf(os.Stderr, "npuemu: %s=%s: %v\n", Env, ExpandPath(envPath), err)
		envPath = ""
	}
}
