package acl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
)

// maxJSONDepth is the deepest nesting of objects/arrays aclInit accepts.
const maxJSONDepth = 10

// Init implements aclInit. path "" means NULL (no configuration file).
func Init(t *core.Thread, path string) (err error) {
	var content []byte
	defer func() { // runs after the deferred unlock below (initcb.go)
		if err == nil {
			core.RunInitCallbacks(content)
		}
	}()
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return abi.Errorf(abi.ACL_ERROR_INVALID_FILE, "aclInit: cannot read configuration file %q: %v", path, err)
		}
		content = data
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	if core.Runtime.InitRefs > 0 {
		if !bytes.Equal(bytes.TrimSpace(content), bytes.TrimSpace(core.Runtime.InitConfig)) {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM,
				"aclInit: already initialised with a different configuration; only the first one is effective")
		}
		core.Runtime.InitRefs++
		return abi.Errorf(abi.ACL_ERROR_REPEAT_INITIALIZE,
			"aclInit: already initialised (reference count now %d)", core.Runtime.InitRefs)
	}
	cfg, err := parseInitConfig(path, content)
	if err != nil {
		return err
	}
	if err := core.LoadFaultPlan(); err != nil { // faults.go
		return err
	}
	if _, err := core.TheNode(); err != nil {
		return abi.Wrapf(err, "aclInit: emulator configuration")
	}
	if cfg.defaultDevice >= 0 {
		// The driver's count (drvGetDevNum), learned here as at the
		// runtime's boot: the default device's lazy open checks against it
		// (rt/core/devcount.go).
		c, err := core.DeviceCount("aclInit")
		if err != nil {
			return err
		}
		if int(cfg.defaultDevice) >= c {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM,
				"aclInit: %s: defaultDevice.default_device %d: %d devices are visible", path, cfg.defaultDevice, c)
		}
	}
	core.Runtime.InitRefs = 1
	core.Runtime.InitConfig = content
	core.Runtime.ErrMsgProcess = cfg.errMsgProcess
	core.SetErrMsgProcessWide(cfg.errMsgProcess)
	atomic.StoreInt32(&core.Runtime.DefaultDevice, cfg.defaultDevice)
	return nil
}

type initConfig struct {
	defaultDevice int32
	errMsgProcess bool
}

// parseInitConfig validates aclInit's JSON and extracts the keys npuemu
// honours (defaultDevice, err_msg_mode). Other documented keys (dump,
// StackSize, ...) are accepted and have no effect.
func parseInitConfig(path string, content []byte) (initConfig, error) {
	cfg := initConfig{defaultDevice: -1}
	if content == nil {
		return cfg, nil
	}
	if err := checkJSONDepth(content); err != nil {
		return cfg, abi.Errorf(abi.ACL_ERROR_PARSE_FILE, "aclInit: %s: %v", path, err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(content, &top); err != nil {
		return cfg, abi.Errorf(abi.ACL_ERROR_PARSE_FILE, "aclInit: %s: not a JSON object: %v", path, err)
	}
	if raw, ok := top["err_msg_mode"]; ok {
		v, err := jsonScalar(raw)
		if err != nil || (v != "0" && v != "1") {
			return cfg, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclInit: %s: err_msg_mode must be \"0\" or \"1\", got %s", path, raw)
		}
		cfg.errMsgProcess = v == "1"
	}
	if raw, ok := top["defaultDevice"]; ok {
		var dd map[string]json.RawMessage
		if err := json.Unmarshal(raw, &dd); err != nil {
			return cfg, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclInit: %s: defaultDevice must be an object: %v", path, err)
		}
		if v, ok := dd["default_device"]; ok {
			s, err := jsonScalar(v)
			id, err2 := strconv.ParseInt(s, 10, 32)
			if err != nil || err2 != nil || id < 0 {
				return cfg, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM,
					"aclInit: %s: defaultDevice.default_device must be a device id, got %s", path, v)
			}
			cfg.defaultDevice = int32(id)
		}
	}
	return cfg, nil
}

// jsonScalar returns a JSON string's text or a number's literal.
func jsonScalar(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return "", err
	}
	return n.String(), nil
}

// checkJSONDepth rejects malformed JSON and nesting deeper than maxJSONDepth.
func checkJSONDepth(content []byte) error {
	dec := json.NewDecoder(bytes.NewReader(content))
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("malformed JSON: %v", err)
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			if depth > maxJSONDepth {
				return fmt.Errorf("JSON nesting deeper than %d levels", maxJSONDepth)
			}
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}

// Finalize implements aclFinalize: whatever the reference count, it
// releases everything still alive.
func Finalize(t *core.Thread) error {
	if core.Initialized() {
		beforeFinalize()
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	if core.Runtime.InitRefs == 0 {
		return abi.Errorf(abi.ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: not initialised (aclInit not called, or already finalized)")
	}
	finalizeLocked(t)
	return nil
}

// FinalizeReference implements aclFinalizeReference: it drops one aclInit
// reference and finalizes on the last; refCount (may be nil) receives the
// remaining count.
func FinalizeReference(t *core.Thread, refCount *uint64) error {
	core.Runtime.Mu.Lock()
	last := core.Runtime.InitRefs == 1
	core.Runtime.Mu.Unlock()
	if last {
		beforeFinalize()
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	if core.Runtime.InitRefs == 0 {
		return abi.Errorf(abi.ACL_ERROR_REPEAT_FINALIZE, "aclFinalizeReference: not initialised (aclInit not called, or already finalized)")
	}
	core.Runtime.InitRefs--
	if core.Runtime.InitRefs == 0 {
		finalizeLocked(t)
	}
	if refCount != nil {
		*refCount = core.Runtime.InitRefs
	}
	return nil
}

// beforeFinalize runs, outside core.Runtime.Mu and while the runtime is still
// usable, what precedes a real finalization: the aclFinalizeCallbackRegister
// callbacks (initcb.go), then DESTROY_PRE for every stream finalization
// releases, default streams included, as an explicit destroy would.
func beforeFinalize() {
	core.RunFinalizeCallbacks()
	core.NoteLeakedRIs()    // rt/core/registry.go: the leak report lists them, made after they are destroyed
	core.FinalizeModelRIs() // mdlri.go
	core.FireStreamsDestroyPre(core.AllStreamsLocked)
}

// LeakCheckEnv names the variable that makes aclFinalize list, on stderr,
// the objects the application left alive.
const LeakCheckEnv = "NPUEMU_LEAK_CHECK"

// leakOut is where the leak report goes (a variable so tests capture it).
var leakOut io.Writer = os.Stderr

// finalizeLocked releases every context, stream, event and allocation,
// closes the node and forgets the configuration.
// Precondition: core.Runtime.Mu held.
func finalizeLocked(t *core.Thread) {
	if os.Getenv(LeakCheckEnv) == "1" {
		reportLeaks(leakOut)
	}
	if core.SanitizerState != nil {
		sanitizeLeaks() // sanitize.go: leakcheck
	}
	for _, d := range core.Runtime.Devs {
		if d != nil {
			d.ReleaseAllLocked()
		}
	}
	core.Runtime.Devs = nil
	core.Forget(core.TableVMMHandles, core.TableReservations, core.TableMemPools) // they die with the node below
	core.Runtime.InitRefs = 0
	core.Runtime.InitConfig = nil
	core.Runtime.ErrMsgProcess = false
	core.SetErrMsgProcessWide(false)
	core.Runtime.Limits = nil
	core.Runtime.SysOpts = nil
	core.Runtime.SatIsSet = false
	atomic.StoreInt32(&core.Runtime.DefaultDevice, -1)
	core.NodeMu.Lock()
	core.Runtime.Node.Store(nil)
	emu.CloseCurrent() // also ends memory allocated through the HAL
	hal.ResetP2P()     // and the driver's peer-to-peer switch
	core.NodeMu.Unlock()
	t.Ctx = nil
}

// reportLeaks writes one line per object still alive.
func reportLeaks(w io.Writer) {
	live := core.LiveLocked()
	if len(live) == 0 {
		fmt.Fprintln(w, "npuemu: leak check: nothing left alive at aclFinalize")
		return
	}
	fmt.Fprintf(w, "npuemu: leak check: %d object(s) still alive at aclFinalize:\n", len(live))
	for _, l := range live {
		where := fmt.Sprintf("device %d", l.Device)
		if l.Device == core.ProcessWide {
			where = "process"
		}
		fmt.Fprintf(w, "  %s %s %s\n", where, l.Kind, l.Summary)
	}
}

// GetVersion implements aclrtGetVersion.
func GetVersion(t *core.Thread, major, minor, patch *int32) error {
	if major == nil || minor == nil || patch == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: majorVersion, minorVersion and patchVersion must not be NULL")
	}
	*major, *minor, *patch = abi.ACL_MAJOR_VERSION, abi.ACL_MINOR_VERSION, abi.ACL_PATCH_VERSION
	return nil
}

// knownPackages are the package names aclsysGetVersionStr/Num accept, with
// the version each reports. Every CANN package of the emulated install has
// CANNVersion; the driver and firmware report the driver release npuemu
// pairs with it.
var knownPackages = map[string]string{
	"cann": core.CANNVersion, "runtime": core.CANNVersion, "compiler": core.CANNVersion, "hccl": core.CANNVersion,
	"toolkit": core.CANNVersion, "opp": core.CANNVersion, "opp_kernel": core.CANNVersion,
	"driver": "25.2.0", "firmware": "7.7.0.1.231",
}

// packageByEnum maps aclCANNPackageName values to package names.
var packageByEnum = []string{"cann", "runtime", "compiler", "hccl", "toolkit", "opp", "opp_kernel", "driver"}

// VersionStr implements aclsysGetVersionStr: the raw version string of a
// package (at most ACL_PKG_VERSION_MAX_SIZE−1 bytes).
func VersionStr(t *core.Thread, pkg string, havePkg bool) (string, error) {
	if !havePkg {
		return "", abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclsysGetVersionStr: pkgName and versionStr must not be NULL")
	}
	v, ok := knownPackages[pkg]
	if !ok {
		return "", abi.Errorf(abi.ACL_ERROR_INVALID_FILE, "aclsysGetVersionStr: package %q is not installed", pkg)
	}
	return v, nil
}

// VersionNum implements aclsysGetVersionNum: major*10000000 + minor*100000
// + patch*1000, with pre-release adjustments (alpha −300+N, beta −200+N,
// rc −100+N).
func VersionNum(t *core.Thread, pkg string, havePkg bool, num *int32) error {
	if !havePkg || num == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclsysGetVersionNum: pkgName and versionNum must not be NULL")
	}
	v, ok := knownPackages[pkg]
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_FILE, "aclsysGetVersionNum: package %q is not installed", pkg)
	}
	n, err := encodeVersion(v)
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_FILE, "aclsysGetVersionNum: package %q: %v", pkg, err)
	}
	*num = n
	return nil
}

// encodeVersion turns "M.m.p[-alpha.N|-beta.N|-rc.N]" into its number.
func encodeVersion(v string) (int32, error) {
	var major, minor, patch int
	var pre string
	var preN int
	main, suffix, hasSuffix := cut(v, '-')
	if _, err := fmt.Sscanf(main, "%d.%d.%d", &major, &minor, &patch); err != nil {
		return 0, fmt.Errorf("version %q is not major.minor.patch", v)
	}
	n := major*10000000 + minor*100000 + patch*1000
	if hasSuffix {
		name, num, _ := cut(suffix, '.')
		pre = name
		if num != "" {
			x, err := strconv.Atoi(num)
			if err != nil {
				return 0, fmt.Errorf("version %q: bad pre-release number", v)
			}
			preN = x
		}
		switch pre {
		case "alpha":
			n += -300 + preN
		case "beta":
			n += -200 + preN
		case "rc":
			n += -100 + preN
		default:
			return 0, fmt.Errorf("version %q: unknown pre-release %q", v, pre)
		}
	}
	return int32(n), nil
}

func cut(s string, sep byte) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// CANNVersionOf implements the deprecated aclsysGetCANNVersion.
func CANNVersionOf(t *core.Thread, name int32, out *core.PackageVersion) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclsysGetCANNVersion: version must not be NULL")
	}
	if name < 0 || int(name) >= len(packageByEnum) {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclsysGetCANNVersion: unknown package name %d", name)
	}
	v := knownPackages[packageByEnum[name]]
	var parts [3]string
	rest := v
	for i := range parts {
		var ok bool
		parts[i], rest, ok = cut(rest, '.')
		if !ok {
			break
		}
	}
	*out = core.PackageVersion{Version: v, Major: parts[0], Minor: parts[1], Release: parts[2], Patch: rest}
	return nil
}
