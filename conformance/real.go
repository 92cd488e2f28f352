package conformance

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The kinds of target, as ledger.tsv names them.
const (
	// KindEmulator: npuemu's own libraries in emulator mode (the default).
	KindEmulator = "emulator"
	// KindPassthrough: npuemu's libraries forwarding to the vendor's
	// (-real, NPUEMU_MODE=passthrough).
	KindPassthrough = "passthrough"
	// KindVendor: another implementation linked directly (-include/-lib).
	KindVendor = "vendor"
)

// passthroughVars are the variables of the caller that a -real run keeps:
// they choose the vendor library and the trace file.
var passthroughVars = []string{"NPUEMU_VENDOR_LIB", "NPUEMU_TRACE"}

// PassthroughEnv returns what -real adds to each case's environment, given
// the caller's environ: NPUEMU_MODE=passthrough and the caller's
// NPUEMU_VENDOR_LIB and NPUEMU_TRACE (Target.Env drops every other NPUEMU_*
// variable). ASCEND_* variables pass unchanged anyway.
func PassthroughEnv(environ []string) []string {
	env := []string{"NPUEMU_MODE=passthrough"}
	for _, kv := range environ {
		for _, k := range passthroughVars {
			if strings.HasPrefix(kv, k+"=") && len(kv) > len(k)+1 {
				env = append(env, kv)
			}
		}
	}
	return env
}

// NewPassthroughTarget returns the -real target: npuemu's headers and
// libraries (include, lib) in passthrough mode. It fails, with the
// library's own message, when the vendor library cannot be loaded: that
// message says that no vendor library was found and where it looked.
func NewPassthroughTarget(include, lib, workDir string) (*Target, error) {
	t, err := NewTarget(include, lib, workDir)
	if err != nil {
		return nil, err
	}
	if !t.Emulator {
		return nil, fmt.Errorf("-real runs npuemu's libraries in passthrough mode, but %s/libascendcl.so is not npuemu's", lib)
	}
	// The cases run through npuemu's libraries but behave as the vendor's:
	// "needs: emulator" cases skip.
	t.Emulator, t.Kind = false, KindPassthrough
	t.ExtraEnv = PassthroughEnv(os.Environ())
	if t.Version, err = t.vendorVersion(); err != nil {
		return nil, err
	}
	return t, nil
}

const vendorProbeSource = `#include <stdio.h>
#include "acl/acl.h"

int main(void) {
    aclError e = aclInit(NULL);
    if (e != ACL_SUCCESS) {
        const char *m = aclGetRecentErrMsg();
        fprintf(stderr, "aclInit failed with %d: %s\n", (int)e, m ? m : "(no message)");
        return 1;
    }
    char pkg[] = "runtime";
    char version[128] = "";
    if (aclsysGetVersionStr(pkg, version) == ACL_SUCCESS) printf("%s\n", version);
    return aclFinalize() == ACL_SUCCESS ? 0 : 1;
}
`

// vendorVersion runs a probe that initialises the vendor library through
// the target and prints the runtime package's version ("" when the vendor
// does not say).
func (t *Target) vendorVersion() (string, error) {
	src := filepath.Join(t.WorkDir, "npuemu_probe_vendor.c")
	if err := os.WriteFile(src, []byte(vendorProbeSource), 0o644); err != nil {
		return "", err
	}
	c := Case{Name: "npuemu_probe_vendor", Path: src}
	bin, log, err := t.Build(c, t.WorkDir)
	if err != nil {
		return "", fmt.Errorf("%w\n%s", err, log)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := t.Run(ctx, c, bin)
	if r.Outcome != Pass {
		msg := strings.TrimSpace(string(r.Stderr))
		if i := strings.LastIndex(msg, "\naclInit failed"); i >= 0 {
			msg = msg[i+1:] // the library printed the same reason once already
		}
		return "", fmt.Errorf("the vendor library could not be initialised through npuemu's passthrough (%s): %s", r.Reason, msg)
	}
	return strings.TrimSpace(string(r.Stdout)), nil
}

// cannText describes the CANN version of a real target for the log.
func cannText(t *Target) string {
	if t.Kind == KindEmulator {
		return ""
	}
	return ", CANN " + versionText(t.Version)
}
