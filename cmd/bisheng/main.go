// Command bisheng is npuemu's Ascend C compiler driver, installed where the
// vendor's build files look for the Ascend C compiler (bisheng, ccec). It
// compiles kernel sources (.cpp, .asc, .cce) with the host C++ compiler
// against npuemu's headers, twice:
//
//   - the device object: a shared object following npuemu/kernel.h, with one
//     entry per `__global__ __aicore__` kernel that runs the kernel through
//     npuemu::asc::run_block with its arguments read from the blob;
//   - the host object: the same unit with every kernel<<<blockDim, l2ctrl,
//     stream>>>(args...) turned into a launch through the ACL runtime
//     (aclrtBinaryLoadFromData of the embedded device object once, then
//     aclrtBinaryGetFunction and aclrtLaunchKernelWithHostArgs), plus an
//     aclrtlaunch_<kernel> function per kernel for ACLRT_LAUNCH_KERNEL.
//
// The device object is embedded in the host object, so the result is one
// ordinary object file. Options the vendor compiler takes and the host
// compiler does not need (--npu-arch=, --cce-*, -mllvm X, -xcce, -xasc) are
// accepted and ignored. docs/ascendc-build.md is the full description.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

const version = "bisheng (npuemu Ascend C driver) 1.0: compiles with the host C++ compiler"

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "bisheng: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	inv, err := parseArgs(args)
	if err != nil {
		return err
	}
	if inv.version {
		fmt.Println(version)
		return nil
	}
	root, err := toolkitRoot()
	if err != nil {
		return err
	}
	inv.root = root
	switch {
	case inv.genHeaders != "":
		return genHeaders(inv)
	case inv.staticLib:
		return archive(inv)
	case inv.fatbinLink:
		return fatbinLink(inv)
	case inv.passThrough:
		return runCmd(inv.cxx, append(append([]string{}, inv.common...), inv.inputs...))
	case inv.compileOnly:
		if len(inv.sources()) == 0 {
			return fmt.Errorf("-c: no source file given")
		}
		if inv.output != "" && len(inv.sources()) > 1 {
			return fmt.Errorf("-c with -o takes one source file, got %d", len(inv.sources()))
		}
		for _, s := range inv.sources() {
			out := inv.output
			if out == "" {
				out = strings.TrimSuffix(filepath.Base(s), filepath.Ext(s)) + ".o"
			}
			if err := compile(inv, s, out); err != nil {
				return err
			}
		}
		return nil
	default:
		return compileAndLink(inv)
	}
}

// toolkitRoot is the npuemu toolkit directory (emu/): the driver lives in
// <root>/compiler/ccec_compiler/bin; NPUEMU_TOOLKIT_ROOT overrides.
func toolkitRoot() (string, error) {
	if r := os.Getenv("NPUEMU_TOOLKIT_ROOT"); r != "" {
		return r, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	root := filepath.Clean(filepath.Join(filepath.Dir(exe), "..", "..", ".."))
	if _, err := os.Stat(filepath.Join(root, "include", "acl", "acl.h")); err != nil {
		return "", fmt.Errorf("cannot find the toolkit's include/acl/acl.h above %s (set NPUEMU_TOOLKIT_ROOT)", exe)
	}
	return root, nil
}

// An invocation is a parsed command line.
type invocation struct {
	cxx         string   // the host C++ compiler
	root        string   // the toolkit root
	common      []string // options for both passes (and the link)
	hostOnly    []string // dependency options, -Xhost-start ... -Xhost-end
	deviceOnly  []string // -Xaicore-start ... -Xaicore-end
	linkOnly    []string // -l, -L, -Wl, ... (link steps only)
	inputs      []string // sources and objects in order
	output      string
	compileOnly bool
	depFile     string // -MF
	arch        archInfo
	genHeaders  string // --npuemu-gen-headers=DIR
	deviceObj   bool   // --npuemu-device-only: -c makes a device object (fatbin part)
	fatbinLink  bool   // --npuemu-fatbin-link: link device objects into a fatbin
	staticLib   bool   // --cce-build-static-lib
	passThrough bool   // -E, -S, -M without -c: the host compiler alone
	hasStd      bool
	keep        bool // --npuemu-keep: leave the work directory
	verbose     bool // --npuemu-verbose: print the commands
	version     bool
	sharedOut   bool // -shared given: link a shared object
}

func (inv *invocation) sources() []string {
	var s []string
	for _, in := range inv.inputs {
		if isSource(in) {
			s = append(s, in)
		}
	}
	return s
}

var sourceExt = map[string]bool{".cpp": true, ".cc": true, ".cxx": true, ".c++": true, ".C": true,
	".asc": true, ".cce": true, ".cu": true}

func isSource(p string) bool { return sourceExt[filepath.Ext(p)] }

// archInfo is the target the vendor's options name, for the macros the
// vendor's compiler defines (__NPU_ARCH__, __CCE_AICORE__).
type archInfo struct {
	npuArch   int // __NPU_ARCH__
	cceAicore int // __CCE_AICORE__
}

var archs = map[string]archInfo{
	"dav-c100": {1001, 100}, "dav-m200": {2002, 200}, "dav-m200-vec": {2002, 200},
	"dav-c220": {2201, 220}, "dav-c220-vec": {2201, 220}, "dav-c220-cube": {2201, 220},
	"dav-2201": {2201, 220}, "dav-2002": {2002, 200}, "dav-m300": {3002, 300}, "dav-m300-vec": {3002, 300},
	"dav-3002": {3002, 300}, "dav-m310": {3102, 310}, "dav-3510": {3510, 310}, "dav-c310": {3510, 310},
}

// two-token options passed to the host compiler as they are.
var withArg = map[string]bool{"-I": true, "-D": true, "-U": true, "-include": true, "-isystem": true,
	"-iquote": true, "-idirafter": true, "-imacros": true, "-isysroot": true, "--sysroot": true}

var linkWithArg = map[string]bool{"-L": true, "-l": true, "-Xlinker": true, "-u": true, "-T": true}

func parseArgs(args []string) (*invocation, error) {
	inv := &invocation{cxx: os.Getenv("NPUEMU_CXX"), arch: archs["dav-c220"]}
	if inv.cxx == "" {
		inv.cxx = "g++"
	}
	if len(args) > 0 && args[0] == "--npuemu-launcher" {
		// CMake compiler launcher: bisheng --npuemu-launcher [opts] <c++> <args>
		args = args[1:]
		var own []string
		for len(args) > 0 && strings.HasPrefix(args[0], "--npuemu-") {
			own = append(own, args[0])
			args = args[1:]
		}
		if len(args) == 0 {
			return nil, fmt.Errorf("--npuemu-launcher: no compiler given")
		}
		inv.cxx = args[0]
		args = append(own, args[1:]...)
	}
	section := "" // "host" or "aicore" between -X*-start and -X*-end
	add := func(a ...string) {
		switch section {
		case "host":
			inv.hostOnly = append(inv.hostOnly, a...)
		case "aicore":
			inv.deviceOnly = append(inv.deviceOnly, a...)
		default:
			inv.common = append(inv.common, a...)
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() (string, error) {
			if i+1 >= len(args) {
				return "", fmt.Errorf("%s needs an argument", a)
			}
			i++
			return args[i], nil
		}
		switch {
		case a == "--version" || a == "-v" && len(args) == 1:
			inv.version = true
		case a == "-c":
			inv.compileOnly = true
		case a == "-o":
			o, err := next()
			if err != nil {
				return nil, err
			}
			inv.output = o
		case strings.HasPrefix(a, "-o") && len(a) > 2:
			inv.output = a[2:]
		case a == "-E" || a == "-S" || a == "-M" || a == "-MM" || a == "-fsyntax-only":
			inv.passThrough = true
			inv.common = append(inv.common, a)
		case a == "-MD" || a == "-MMD" || a == "-MP":
			inv.hostOnly = append(inv.hostOnly, a)
		case a == "-MF" || a == "-MT" || a == "-MQ":
			v, err := next()
			if err != nil {
				return nil, err
			}
			if a == "-MF" {
				inv.depFile = v
			}
			inv.hostOnly = append(inv.hostOnly, a, v)
		case strings.HasPrefix(a, "-MF") || strings.HasPrefix(a, "-MT") || strings.HasPrefix(a, "-MQ"):
			if strings.HasPrefix(a, "-MF") {
				inv.depFile = a[3:]
			}
			inv.hostOnly = append(inv.hostOnly, a)
		// -x: the language of what follows; kernel sources are C++ to us
		case a == "-x":
			if _, err := next(); err != nil {
				return nil, err
			}
		case strings.HasPrefix(a, "-x") && !strings.HasPrefix(a, "-Xlinker") && !strings.HasPrefix(a, "-X"):
		// ignored vendor options (docs/ascendc-build.md)
		case strings.HasPrefix(a, "--npu-arch=") || strings.HasPrefix(a, "--cce-aicore-arch="):
			if ai, ok := archs[a[strings.IndexByte(a, '=')+1:]]; ok {
				inv.arch = ai
			}
		case a == "--npu-arch" || a == "--cce-aicore-arch" || a == "--npu-soc" || a == "-arch":
			v, err := next()
			if err != nil {
				return nil, err
			}
			if ai, ok := archs[v]; ok {
				inv.arch = ai
			}
		case a == "--cce-build-static-lib":
			inv.staticLib = true
		case strings.HasPrefix(a, "--cce-") || strings.HasPrefix(a, "--npu-") || a == "--auto-sync":
		case a == "-mllvm":
			if _, err := next(); err != nil {
				return nil, err
			}
		case a == "-Xhost-start":
			section = "host"
		case a == "-Xaicore-start":
			section = "aicore"
		case a == "-Xhost-end" || a == "-Xaicore-end":
			section = ""
		// npuemu's own options
		case strings.HasPrefix(a, "--npuemu-gen-headers="):
			inv.genHeaders = strings.TrimPrefix(a, "--npuemu-gen-headers=")
		case a == "--npuemu-device-only":
			inv.deviceObj = true
		case a == "--npuemu-fatbin-link":
			inv.fatbinLink = true
		case a == "--npuemu-keep":
			inv.keep = true
		case a == "--npuemu-verbose":
			inv.verbose = true
		case strings.HasPrefix(a, "--npuemu-"):
			return nil, fmt.Errorf("unknown option %s", a)
		case withArg[a]:
			v, err := next()
			if err != nil {
				return nil, err
			}
			add(a, v)
		case linkWithArg[a]:
			v, err := next()
			if err != nil {
				return nil, err
			}
			inv.linkOnly = append(inv.linkOnly, a, v)
		case strings.HasPrefix(a, "-l") || strings.HasPrefix(a, "-L") || strings.HasPrefix(a, "-Wl,") ||
			a == "-rdynamic" || a == "-pie" || a == "-no-pie" || a == "-static" || a == "-s" ||
			strings.HasPrefix(a, "-static-") || strings.HasPrefix(a, "-Xlinker"):
			inv.linkOnly = append(inv.linkOnly, a)
		case a == "-shared":
			inv.sharedOut = true
		case strings.HasPrefix(a, "-std="):
			inv.hasStd = true
			add(a)
		case strings.HasPrefix(a, "-"):
			add(a)
		default:
			inv.inputs = append(inv.inputs, a)
		}
	}
	return inv, nil
}

// passFlags are the options of a compile pass: the user's, the target's
// macros, the toolkit's include directory last (so the user's own headers
// win), C++17 unless the user chose a standard.
func (inv *invocation) passFlags(device bool) []string {
	f := []string{}
	if !inv.hasStd {
		f = append(f, "-std=c++17")
	}
	f = append(f, inv.common...)
	if device {
		f = append(f, inv.deviceOnly...)
	} else {
		f = append(f, inv.hostOnly...)
	}
	f = append(f,
		"-D__NPUEMU_ASCENDC__=1",
		fmt.Sprintf("-D__NPU_ARCH__=%d", inv.arch.npuArch),
		fmt.Sprintf("-D__CCE_AICORE__=%d", inv.arch.cceAicore),
		"-I"+filepath.Join(inv.root, "include"))
	if device {
		// Host code of the unit (main, launch wrappers) is compiled here too
		// but must not be linked in: it may call functions of other units,
		// which a dlopen'ed device object cannot resolve. Hidden by default
		// and collected by the linker, only what the kernel table reaches
		// stays (the table itself is exported).
		f = append(f, "-D__NPUEMU_DEVICE_PASS__=1", "-fPIC", "-fvisibility=hidden",
			"-ffunction-sections", "-fdata-sections", "-Wl,--gc-sections")
		// the device pass runs the kernels: optimise unless told -O3/-Ofast
		if !hasOpt(f, "-O3", "-Ofast") {
			f = append(f, "-O2")
		}
		f = dropWerror(f)
	} else {
		f = append(f, "-D__NPUEMU_HOST_PASS__=1")
	}
	return f
}

func hasOpt(f []string, opts ...string) bool {
	for _, a := range f {
		for _, o := range opts {
			if a == o {
				return true
			}
		}
	}
	return false
}

// dropWerror: the host pass compiles the same code with the user's
// warnings; the device pass at -O2 may warn differently and must not fail
// on that alone.
func dropWerror(f []string) []string {
	out := f[:0:0]
	for _, a := range f {
		if a == "-Werror" || strings.HasPrefix(a, "-Werror=") {
			continue
		}
		out = append(out, a)
	}
	return out
}
