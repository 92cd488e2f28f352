package acl

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/timeline"
)

// The aclprof* collection control (acl/acl_prof.h, docs/profiling.md).
// Collection reads the device timeline (package timeline): aclprofStart
// attaches a recorder if NPUEMU_TIMELINE has not, notes where each
// device's task sequence stands, and aclprofStop writes the tasks queued
// since then, in msprof's exported layout, into a new PROF_ directory
// under the aclprofInit path:
//
//	PROF_<n6>_<YYYYMMDDhhmmssmmm>_<pid8><8 letters A-R>/
//	  host/data/  device_<id>/data/            (empty: no raw data is kept)
//	  mindstudio_profiler_output/
//	    op_summary_<ts>.csv task_time_<ts>.csv msprof_<ts>.json
//	    msprof_tx_<ts>.csv (when ACL_PROF_MSPROFTX) README.txt
//
// The process-wide mode follows the reference state machine (OFF, API,
// SUBSCRIBE; CMD, the msprof launcher's mode, never happens here).

type profMode int

const (
	profOff profMode = iota
	profAPI
	profSubscribe
)

// profAcceptedBits is the switch word aclprofStart accepts (prof-api.md §2.3).
const profAcceptedBits = 0x4000000C0100FBFF

const profBitAicpuModel = 1 << 62

var prof struct {
	mu sync.Mutex
	// Guarded by mu.
	mode     profMode
	path     string           // base result directory
	settings map[int32]string // aclprofSetConfig values
	configs  map[uintptr]*profConfig
	nextCfg  uintptr
	running  *profRun
	starts   int
	attached bool // the recorder was attached by Start, not by NPUEMU_TIMELINE
}

type profConfig struct {
	devs    []uint32
	metrics int32
	types   uint64
}

type profRun struct {
	cfg   *profConfig
	dir   string
	since map[int]uint64
	tx    int // tx events before the start
}

// profHandleTag marks aclprofConfig pointers: never a real address.
const profHandleTag = uintptr(0x5052) << 48

// ProfInit implements aclprofInit.
func ProfInit(t *core.Thread, path []byte) error {
	const fn = "aclprofInit"
	if path == nil || len(path) == 0 || len(path) >= 4096 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: the path must be non-NULL and 1..4095 bytes long", fn)
	}
	if os.Getenv("PROFILING_MODE") == "dynamic" {
		return abi.Errorf(abi.ACL_ERROR_FEATURE_UNSUPPORTED, "%s: PROFILING_MODE=dynamic: the API cannot be used in dynamic profiling mode", fn)
	}
	prof.mu.Lock()
	defer prof.mu.Unlock()
	switch prof.mode {
	case profAPI:
		return abi.Errorf(abi.ACL_ERROR_REPEAT_INITIALIZE, "%s: already initialised (call aclprofFinalize first)", fn)
	case profSubscribe:
		return abi.Errorf(abi.ACL_ERROR_PROF_API_CONFLICT, "%s: a model subscription is active", fn)
	}
	abs, err := filepath.Abs(string(path))
	if err == nil {
		err = os.MkdirAll(abs, 0o755)
	}
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_FILE, "%s: cannot create the result directory %q: %v", fn, path, err)
	}
	prof.path, prof.mode = abs, profAPI
	return nil
}

// ProfFinalize implements aclprofFinalize: stops a running collection and
// leaves API mode; success when nothing was initialised (newest reference).
func ProfFinalize(t *core.Thread) error {
	prof.mu.Lock()
	defer prof.mu.Unlock()
	if prof.mode == profSubscribe {
		return abi.Errorf(abi.ACL_ERROR_PROF_API_CONFLICT, "aclprofFinalize: a model subscription is active")
	}
	var err error
	if prof.running != nil {
		err = stopLocked()
	}
	prof.mode = profOff
	return err
}

// ProfSetConfig implements aclprofSetConfig.
func ProfSetConfig(t *core.Thread, typ int32, val []byte) error {
	const fn = "aclprofSetConfig"
	if typ <= abi.ACL_PROF_ARGS_MIN || typ >= abi.ACL_PROF_ARGS_MAX || typ == 2 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: config type %d is not one of aclprofConfigType", fn, typ)
	}
	if val == nil || len(val) > 256 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: the value must be non-NULL, at most 256 bytes, and its length must equal strlen", fn)
	}
	s := string(val)
	if !profValueOK(typ, s) {
		if typ == abi.ACL_PROF_NTS_METRICS {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: invalid NTS metrics %q", fn, s)
		}
		return abi.Errorf(abi.ACL_ERROR_INVALID_PROFILING_CONFIG, "%s: invalid value %q for config type %d", fn, s, typ)
	}
	prof.mu.Lock()
	defer prof.mu.Unlock()
	if prof.settings == nil {
		prof.settings = map[int32]string{}
	}
	prof.settings[typ] = s
	if typ == abi.ACL_PROF_PATH {
		abs, err := filepath.Abs(s)
		if err == nil {
			err = os.MkdirAll(abs, 0o755)
		}
		if err != nil {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PROFILING_CONFIG, "%s: cannot create %q: %v", fn, s, err)
		}
		prof.path = abs
	}
	return nil
}

// profValueOK checks a value string of aclprofSetConfig (prof-api.md §4.2).
func profValueOK(typ int32, s string) bool {
	hz := func(lo, hi int) bool {
		n, err := strconv.Atoi(s)
		return err == nil && n >= lo && n <= hi
	}
	list := func(allowed ...string) bool {
		for _, w := range strings.Split(s, ",") {
			ok := false
			for _, a := range allowed {
				ok = ok || w == a
			}
			if !ok {
				return false
			}
		}
		return true
	}
	switch typ {
	case abi.ACL_PROF_STORAGE_LIMIT:
		n, err := strconv.ParseUint(strings.TrimSuffix(s, "MB"), 10, 64)
		return strings.HasSuffix(s, "MB") && err == nil && n >= 200 && n <= 4294967295
	case abi.ACL_PROF_SYS_HARDWARE_MEM_FREQ:
		return hz(1, 10000)
	case abi.ACL_PROF_LLC_MODE:
		return s == "read" || s == "write"
	case abi.ACL_PROF_SYS_IO_FREQ, abi.ACL_PROF_DVPP_FREQ, abi.ACL_PROF_LOW_POWER_FREQ:
		return hz(1, 100)
	case abi.ACL_PROF_SYS_INTERCONNECTION_FREQ, abi.ACL_PROF_HOST_SYS_USAGE_FREQ, abi.ACL_PROF_SYS_CPU_FREQ:
		return hz(1, 50)
	case abi.ACL_PROF_HOST_SYS:
		return list("cpu", "mem", "disk", "network", "osrt", "numa")
	case abi.ACL_PROF_HOST_SYS_USAGE:
		return list("cpu", "mem")
	}
	return s != ""
}

// ProfCreateConfig implements aclprofCreateConfig; 0 (NULL) on bad
// arguments, with the reason as the thread's recent message.
func ProfCreateConfig(t *core.Thread, devs []uint32, nilList bool, metrics int32, events bool, types uint64) (uintptr, error) {
	const fn = "aclprofCreateConfig"
	bad := func(f string, a ...any) (uintptr, error) {
		return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, fn+": "+f, a...)
	}
	switch {
	case len(devs) > 0 && nilList:
		return bad("deviceIdList is NULL with deviceNums %d", len(devs))
	case events:
		return bad("aicoreEvents must be NULL")
	case len(devs) > 64:
		return bad("%d devices: at most 64", len(devs))
	case len(devs) == 0 && types&abi.ACL_PROF_MSPROFTX == 0:
		return bad("no device: only a host-only msproftx collection (ACL_PROF_MSPROFTX) may list none")
	}
	var count uint32
	if err := core.GetDeviceCount(t, &count); err != nil {
		return 0, err
	}
	seen := map[uint32]bool{}
	for _, d := range devs {
		if d >= count {
			return bad("device %d: the node has %d devices", d, count)
		}
		if seen[d] {
			return bad("device %d listed twice", d)
		}
		seen[d] = true
	}
	w := types | profBitAicpuModel
	if types&abi.ACL_PROF_TASK_TIME != 0 {
		w |= abi.ACL_PROF_TASK_TIME_L0
	}
	if types&(abi.ACL_PROF_TASK_TIME_L2|abi.ACL_PROF_OP_ATTR) != 0 {
		w |= abi.ACL_PROF_TASK_TIME_L0 | abi.ACL_PROF_TASK_TIME
	}
	if types&abi.ACL_PROF_TASK_TIME_L3 != 0 {
		w |= abi.ACL_PROF_TASK_TIME_L0 | abi.ACL_PROF_TASK_TIME | abi.ACL_PROF_TASK_TIME_L2
	}
	if w&abi.ACL_PROF_TASK_TIME_L0 != 0 {
		w |= abi.ACL_PROF_TRAINING_TRACE
	}
	if types&abi.ACL_PROF_API_STATS != 0 {
		w = abi.ACL_PROF_ACL_API | abi.ACL_PROF_API_STATS
	}
	prof.mu.Lock()
	defer prof.mu.Unlock()
	if prof.configs == nil {
		prof.configs = map[uintptr]*profConfig{}
	}
	prof.nextCfg++
	h := profHandleTag | prof.nextCfg<<4
	prof.configs[h] = &profConfig{devs: append([]uint32(nil), devs...), metrics: metrics, types: w}
	return h, nil
}

// ProfDestroyConfig implements aclprofDestroyConfig.
func ProfDestroyConfig(t *core.Thread, h uintptr) error {
	prof.mu.Lock()
	defer prof.mu.Unlock()
	if _, ok := prof.configs[h]; !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclprofDestroyConfig: %#x is not a live aclprofConfig", h)
	}
	delete(prof.configs, h)
	return nil
}

// Precondition: prof.mu held.
func configLocked(fn string, h uintptr) (*profConfig, error) {
	c, ok := prof.configs[h]
	if !ok {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %#x is not a live aclprofConfig", fn, h)
	}
	return c, nil
}

// Precondition: prof.mu held.
func modeErrLocked(fn string) error {
	switch prof.mode {
	case profOff:
		return abi.Errorf(abi.ACL_ERROR_PROF_NOT_RUN, "%s: aclprofInit has not been called", fn)
	case profSubscribe:
		return abi.Errorf(abi.ACL_ERROR_PROF_API_CONFLICT, "%s: a model subscription is active", fn)
	}
	return nil
}

// ProfStart implements aclprofStart.
func ProfStart(t *core.Thread, h uintptr) error {
	const fn = "aclprofStart"
	prof.mu.Lock()
	defer prof.mu.Unlock()
	c, err := configLocked(fn, h)
	if err != nil {
		return err
	}
	if err := modeErrLocked(fn); err != nil {
		return err
	}
	if c.types&^uint64(profAcceptedBits) != 0 {
		return abi.Errorf(abi.ACL_ERROR_PROF_MODULES_UNSUPPORTED, "%s: data types %#x are not supported", fn, c.types&^uint64(profAcceptedBits))
	}
	if prof.running != nil {
		if prof.running.cfg == c || sameConfig(prof.running.cfg, c) {
			return nil // consistent with what runs: nothing new starts
		}
		return abi.Errorf(abi.ACL_ERROR_PROF_ALREADY_RUN, "%s: a collection with another configuration is running", fn)
	}
	prof.starts++
	now := time.Now()
	name := fmt.Sprintf("PROF_%06d_%s%03d_%08d%s", (prof.starts-1)%999999+1, now.Format("20060102150405"), now.Nanosecond()/1e6, os.Getpid(), randomLetters())
	dir := filepath.Join(prof.path, name)
	subs := []string{"host/data"}
	for _, d := range c.devs {
		subs = append(subs, fmt.Sprintf("device_%d/data", d))
	}
	for _, s := range subs {
		if err := os.MkdirAll(filepath.Join(dir, s), 0o755); err != nil {
			return abi.Errorf(abi.ACL_ERROR_INVALID_FILE, "%s: %v", fn, err)
		}
	}
	r := timeline.Current()
	if r == nil {
		r = timeline.NewRecorder()
		timeline.Attach(r)
		prof.attached = true
	}
	prof.running = &profRun{cfg: c, dir: dir, since: r.LastSeq(), tx: txCount()}
	profTx.Store(c.types&abi.ACL_PROF_MSPROFTX != 0)
	return nil
}

func sameConfig(a, b *profConfig) bool {
	if a.types != b.types || a.metrics != b.metrics || len(a.devs) != len(b.devs) {
		return false
	}
	for i := range a.devs {
		if a.devs[i] != b.devs[i] {
			return false
		}
	}
	return true
}

func randomLetters() string {
	b := make([]byte, 8)
	for i := range b {
		b[i] = byte('A' + rand.IntN(18))
	}
	return string(b)
}

// ProfStop implements aclprofStop: it writes what was collected.
func ProfStop(t *core.Thread, h uintptr) error {
	const fn = "aclprofStop"
	prof.mu.Lock()
	defer prof.mu.Unlock()
	c, err := configLocked(fn, h)
	if err != nil {
		return err
	}
	if err := modeErrLocked(fn); err != nil {
		return err
	}
	if prof.running == nil {
		return abi.Errorf(abi.ACL_ERROR_PROF_NOT_RUN, "%s: no collection is running", fn)
	}
	if !sameConfig(prof.running.cfg, c) {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: pass the configuration aclprofStart was given", fn)
	}
	return stopLocked()
}

// stopLocked ends the running collection and writes its files.
// Precondition: prof.mu held, prof.running != nil.
func stopLocked() error {
	run := prof.running
	prof.running = nil
	profTx.Store(false)
	r := timeline.Current()
	var tasks []timeline.Task
	if r != nil {
		tasks = r.TasksSince(run.since)
	}
	if prof.attached {
		timeline.Attach(nil)
		prof.attached = false
	}
	keep := map[int]bool{}
	for _, d := range run.cfg.devs {
		keep[int(d)] = true
	}
	var sel []timeline.Task
	for _, t := range tasks {
		if keep[t.Dev] {
			sel = append(sel, t)
		}
	}
	tx := txSince(run.tx)
	if err := writeProfOutput(run.dir, run.cfg, sel, tx); err != nil {
		return abi.Errorf(abi.ACL_ERROR_WRITE_FILE, "aclprofStop: writing %s: %v", run.dir, err)
	}
	return nil
}

// profTx is set while a collection with the msproftx switch runs (stamps
// and mstx record into the tx log only then). An atomic, so that tx.mu
// holders may read it (the lock order is prof.mu → tx.mu).
var profTx atomic.Bool

func profCollecting() bool { return profTx.Load() }

// ProfNullArg is the error of a NULL output argument of an aclprof call.
func ProfNullArg(fn, arg string) error {
	return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s must not be NULL", fn, arg)
}
