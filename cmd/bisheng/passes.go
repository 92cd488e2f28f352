package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// work is one compile's scratch directory.
type work struct {
	dir  string
	keep bool
}

func newWork(keep bool) (*work, error) {
	d, err := os.MkdirTemp("", "npuemu-bisheng-")
	if err != nil {
		return nil, err
	}
	return &work{dir: d, keep: keep}, nil
}

func (w *work) path(name string) string { return filepath.Join(w.dir, name) }

func (w *work) done() {
	if w.keep {
		fmt.Fprintf(os.Stderr, "bisheng: work files kept in %s\n", w.dir)
		return
	}
	os.RemoveAll(w.dir)
}

var verbose bool

func runCmd(name string, args []string) error {
	if verbose {
		fmt.Fprintf(os.Stderr, "+ %s %s\n", name, strings.Join(args, " "))
	}
	c := exec.Command(name, args...)
	c.Stdout, c.Stderr = os.Stdout, os.Stderr
	if err := c.Run(); err != nil {
		return fmt.Errorf("%s failed: %v", filepath.Base(name), err)
	}
	return nil
}

// unit is a source as the passes compile it.
type unit struct {
	src     string // absolute path of the source
	text    string // its text with the launches rewritten
	scan    *scan
	plain   bool // no kernel, no launch: compiled as it is
	blobSym string
}

func loadUnit(src string, salt string) (*unit, error) {
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, err
	}
	s, err := scanSource(string(data))
	if err != nil {
		return nil, fmt.Errorf("%s:%v", src, err)
	}
	for _, w := range s.Warnings {
		fmt.Fprintf(os.Stderr, "%s:%s [bisheng]\n", src, w)
	}
	u := &unit{src: abs, scan: s, text: rewriteLaunches(string(data), s.Launches)}
	u.plain = len(s.Kernels) == 0 && len(s.Launches) == 0
	defined := map[string]bool{}
	for _, k := range s.Kernels {
		defined[k.Name] = true
	}
	for _, l := range s.Launches {
		if !defined[l.Name] {
			return nil, fmt.Errorf("%s:%d: %s<<<...>>>: the kernel is not defined in this file; npuemu's driver needs a kernel and its <<<>>> launches in one source (docs/ascendc-build.md)", src, l.Line, l.Name)
		}
	}
	h := sha256.Sum256([]byte(abs + "\x00" + salt))
	u.blobSym = "npuemu_asc_devbin_" + hex.EncodeToString(h[:8])
	return u, nil
}

// tu writes the unit as one pass compiles it.
func (u *unit) tu(path string, prelude, epilogue string) error {
	var b strings.Builder
	b.WriteString(prelude)
	fmt.Fprintf(&b, "#line 1 \"%s\"\n", u.src)
	b.WriteString(u.text)
	if !strings.HasSuffix(u.text, "\n") {
		b.WriteString("\n")
	}
	b.WriteString(epilogue)
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// compile makes out from src: a plain object for a source without
// kernels, else host object + embedded device object, or (with
// --npuemu-device-only) the device part alone for a fatbin.
func compile(inv *invocation, src, out string) error {
	verbose = inv.verbose
	u, err := loadUnit(src, out)
	if err != nil {
		return err
	}
	srcDirQuote := []string{"-iquote", filepath.Dir(u.src)}
	if u.plain && !inv.deviceObj {
		args := append(inv.passFlags(false), "-c", "-x", "c++", u.src, "-x", "none", "-o", out)
		return runCmd(inv.cxx, args)
	}
	w, err := newWork(inv.keep)
	if err != nil {
		return err
	}
	defer w.done()

	devTU := w.path("npuemu_device_tu.cpp")
	devOut := w.path("npuemu_device.so")
	if inv.deviceObj {
		devOut = out
	}
	if err := u.tu(devTU, preludeCommon+preludeDevice, deviceEpilogue(u.scan.Kernels, !inv.deviceObj)); err != nil {
		return err
	}
	devArgs := append(inv.passFlags(true), srcDirQuote...)
	if inv.deviceObj {
		devArgs = append(devArgs, "-c", devTU, "-o", devOut)
	} else {
		devArgs = append(devArgs, "-shared", devTU, "-o", devOut)
	}
	if inv.deviceObj {
		return runCmd(inv.cxx, devArgs)
	}

	hostTU := w.path("npuemu_host_tu.cpp")
	hostObj := w.path("npuemu_host.o")
	if err := u.tu(hostTU, preludeCommon+preludeHost, hostEpilogue(u.scan.Kernels, u.blobSym)); err != nil {
		return err
	}
	hostArgs := append(inv.passFlags(false), srcDirQuote...)
	hostArgs = append(hostArgs, depDefaults(inv, out)...)
	hostArgs = append(hostArgs, "-c", hostTU, "-o", hostObj)

	// the two passes run at once
	var wg sync.WaitGroup
	var devErr, hostErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		devErr = runCmd(inv.cxx, devArgs)
	}()
	hostErr = runCmd(inv.cxx, hostArgs)
	wg.Wait()
	if hostErr != nil {
		return fmt.Errorf("%s: host pass: %v", src, hostErr)
	}
	if devErr != nil {
		return fmt.Errorf("%s: device pass: %v", src, devErr)
	}
	if inv.depFile != "" {
		if err := fixDepFile(inv.depFile, hostTU, u.src); err != nil {
			return err
		}
	}
	blobS := w.path("npuemu_blob.s")
	blobObj := w.path("npuemu_blob.o")
	if err := os.WriteFile(blobS, []byte(blobAsm(u.blobSym, devOut)), 0o644); err != nil {
		return err
	}
	if err := runCmd(inv.cxx, []string{"-c", blobS, "-o", blobObj}); err != nil {
		return err
	}
	return runCmd(inv.cxx, []string{"-r", "-nostdlib", hostObj, blobObj, "-o", out})
}

// depDefaults: the host pass compiles a generated unit into a scratch
// object, so a dependency file asked for without its name or target gets
// those gcc would have given the real output: <out without extension>.d
// and target out. fixDepFile then names the source instead of the unit.
func depDefaults(inv *invocation, out string) []string {
	var md, mf, mt bool
	for _, a := range inv.hostOnly {
		switch {
		case a == "-MD" || a == "-MMD":
			md = true
		case strings.HasPrefix(a, "-MF"):
			mf = true
		case strings.HasPrefix(a, "-MT") || strings.HasPrefix(a, "-MQ"):
			mt = true
		}
	}
	if !md {
		return nil
	}
	var f []string
	if !mf {
		inv.depFile = strings.TrimSuffix(out, filepath.Ext(out)) + ".d"
		f = append(f, "-MF", inv.depFile)
	}
	if !mt {
		f = append(f, "-MT", out)
	}
	return f
}

// fixDepFile names the source instead of the generated unit in a
// dependency file written by the host pass.
func fixDepFile(path, tu, src string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil // the compiler was not asked for one after all
	}
	s := strings.ReplaceAll(string(data), tu, src)
	return os.WriteFile(path, []byte(s), 0o644)
}

// compileAndLink: sources are compiled to objects first, then everything
// is linked by the host compiler with the ACL runtime.
func compileAndLink(inv *invocation) error {
	verbose = inv.verbose
	if inv.output == "" {
		inv.output = "a.out"
	}
	var w *work
	var objs []string
	for i, in := range inv.inputs {
		if !isSource(in) {
			objs = append(objs, in)
			continue
		}
		if w == nil {
			var err error
			if w, err = newWork(inv.keep); err != nil {
				return err
			}
			defer w.done()
		}
		o := w.path(fmt.Sprintf("obj%d_%s.o", i, strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))))
		if err := compile(inv, in, o); err != nil {
			return err
		}
		objs = append(objs, o)
	}
	return link(inv, objs)
}

// link runs the host compiler's link with the user's options and, when
// any object needs it, the ACL runtime of the toolkit.
func link(inv *invocation, objs []string) error {
	args := []string{}
	args = append(args, inv.common...)
	if inv.sharedOut {
		args = append(args, "-shared")
	}
	args = append(args, objs...)
	args = append(args, inv.linkOnly...)
	args = append(args, "-L"+filepath.Join(inv.root, "lib64"),
		"-Wl,--push-state,--as-needed", "-lascendcl", "-Wl,--pop-state", "-o", inv.output)
	return runCmd(inv.cxx, args)
}

// archive: --cce-build-static-lib makes a static library of the objects.
func archive(inv *invocation) error {
	if inv.output == "" {
		return fmt.Errorf("--cce-build-static-lib: no -o given")
	}
	os.Remove(inv.output)
	return runCmd("ar", append([]string{"crs", inv.output}, inv.inputs...))
}

// fatbinLink links device objects (--npuemu-device-only) into one device
// binary with one kernel table: what aclrtBinaryLoadFromFile loads.
func fatbinLink(inv *invocation) error {
	verbose = inv.verbose
	if inv.output == "" {
		return fmt.Errorf("--npuemu-fatbin-link: no -o given")
	}
	w, err := newWork(inv.keep)
	if err != nil {
		return err
	}
	defer w.done()
	if err := os.MkdirAll(filepath.Dir(inv.output), 0o755); err != nil {
		return err
	}
	tab := w.path("npuemu_table.cpp")
	if err := os.WriteFile(tab, []byte(tableUnit()), 0o644); err != nil {
		return err
	}
	args := []string{"-std=c++17", "-O2", "-fPIC", "-shared", "-Wl,--gc-sections", "-I" + filepath.Join(inv.root, "include"), tab}
	args = append(args, inv.inputs...)
	args = append(args, inv.linkOnly...)
	args = append(args, "-o", inv.output)
	return runCmd(inv.cxx, args)
}

// genHeaders writes aclrtlaunch_<kernel>.h for every kernel of the sources.
func genHeaders(inv *invocation) error {
	if err := os.MkdirAll(inv.genHeaders, 0o755); err != nil {
		return err
	}
	for _, src := range inv.inputs {
		data, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		s, err := scanSource(string(data))
		if err != nil {
			return fmt.Errorf("%s:%v", src, err)
		}
		for _, k := range s.Kernels {
			p := filepath.Join(inv.genHeaders, "aclrtlaunch_"+k.Name+".h")
			text := launchHeader(k, filepath.Base(src))
			if old, err := os.ReadFile(p); err == nil && string(old) == text {
				continue // unchanged: keep the timestamp
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
