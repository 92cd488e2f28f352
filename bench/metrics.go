package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Sample is one figure printed by one run of a benchmark program.
type Sample struct {
	Value float64
	Unit  string
}

// metricLine is the output contract shared with ocl_peer.c and limits.c:
// "name value unit", the unit possibly containing '/'.
var metricLine = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_]*) +(\S+) +(\S+)$`)

// ParseMetrics reads "metric value unit" lines. Blank lines are skipped; any
// other line, a value that is not a finite number, or a metric printed twice
// is an error, because a garbled output must not turn into a silent "—".
func ParseMetrics(r io.Reader) (map[string]Sample, error) {
	out := map[string]Sample{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		m := metricLine.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("line %d: %q is not \"metric value unit\"", n, line)
		}
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("line %d: value %q of %s is not a finite number", n, m[2], m[1])
		}
		if _, dup := out[m[1]]; dup {
			return nil, fmt.Errorf("line %d: metric %s printed twice", n, m[1])
		}
		out[m[1]] = Sample{Value: v, Unit: m[3]}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Series collects the values of each metric over several runs of a program.
type Series map[string]*series

type series struct {
	unit   string
	values []float64
}

// Add appends one run's figures. A metric whose unit changes between runs is
// an error: its median would mix incomparable numbers.
func (s Series) Add(run map[string]Sample) error {
	for name, smp := range run {
		cur, ok := s[name]
		if !ok {
			cur = &series{unit: smp.Unit}
			s[name] = cur
		}
		if cur.unit != smp.Unit {
			return fmt.Errorf("metric %s changed unit from %s to %s", name, cur.unit, smp.Unit)
		}
		cur.values = append(cur.values, smp.Value)
	}
	return nil
}

// Median returns the median of a metric and its unit; ok is false when the
// metric was never printed.
func (s Series) Median(name string) (v float64, unit string, ok bool) {
	cur, found := s[name]
	if !found || len(cur.values) == 0 {
		return 0, "", false
	}
	return Median(cur.values), cur.unit, true
}

// Names returns the metric names in s, sorted.
func (s Series) Names() []string {
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Median of values (the mean of the two middle ones for an even count);
// values is not modified. Median of nothing is NaN.
func Median(values []float64) float64 {
	if len(values) == 0 {
		return math.NaN()
	}
	v := slices.Clone(values)
	slices.Sort(v)
	mid := len(v) / 2
	if len(v)%2 == 1 {
		return v[mid]
	}
	return (v[mid-1] + v[mid]) / 2
}

// higherIsBetter tells the direction of a metric from its unit: rates
// (GB/s, launches/s) grow with speed, durations shrink.
func higherIsBetter(unit string) bool { return strings.HasSuffix(unit, "/s") }

// Speedup is how many times faster npuemu is than the peer (> 1: npuemu
// faster), whatever the direction of the metric.
func Speedup(npu, peer float64, unit string) float64 {
	if higherIsBetter(unit) {
		return npu / peer
	}
	return peer / npu
}

// TargetKind says what a target compares.
type TargetKind int

const (
	// AtMost: npuemu's value must not exceed Limit (durations).
	AtMost TargetKind = iota
	// AtLeast: npuemu's value must reach Limit (rates).
	AtLeast
	// SpeedupAtLeast: npuemu must be at least Limit times as fast as the peer.
	SpeedupAtLeast
)

// Target is a goal for one metric.
type Target struct {
	Kind   TargetKind
	Limit  float64
	Source string // where the goal comes from
}

// Row describes one metric of the table.
type Row struct {
	Metric string  // name printed by npuemu_bench
	Unit   string  // unit printed with it
	Peer   string  // name printed by ocl_peer, "" when the peer has no such workload
	Target *Target // nil: no goal, figure for information
	// Pending explains why npuemu_bench does not print the metric yet; empty
	// for metrics it must print.
	Pending string
	// Program is the benchmark program that prints the metric when it is not
	// npuemu_bench ("replay_bench": bench/c/replay_bench.c).
	Program string
}

const (
	fromIssue   = "issue #3"
	fromArch    = "ARCHITECTURE.md hot-path budget"
	fromKern    = "issue #4"
	fromRI      = "issue #6"
	fromSVM     = "issue #5"
	fromAscendC = "issue #11"
	fromPerf    = "issue #15"
)

// catalogue lists the rows of the table in order. Metrics printed by either
// program but absent here are appended after it, so a new workload shows up
// without touching the runner.
var catalogue = []Row{
	{Metric: "launch_enqueue_ns", Unit: "ns/launch", Peer: "launch_enqueue_ns", Target: &Target{AtMost, 500, fromArch}},
	{Metric: "launch_throughput", Unit: "launches/s", Peer: "launch_throughput", Target: &Target{AtLeast, 1e6, fromArch}},
	{Metric: "launch_sync_roundtrip_us", Unit: "us", Peer: "launch_sync_roundtrip_us", Target: &Target{AtMost, 5, fromArch}},
	{Metric: "h2d_64MiB_GBps", Unit: "GB/s", Peer: "h2d_64MiB_GBps", Target: &Target{SpeedupAtLeast, 1, fromIssue}},
	{Metric: "d2h_64MiB_GBps", Unit: "GB/s", Peer: "d2h_64MiB_GBps", Target: &Target{SpeedupAtLeast, 1, fromIssue}},
	{Metric: "h2d_64MiB_pinned_GBps", Unit: "GB/s"},
	{Metric: "d2h_64MiB_pinned_GBps", Unit: "GB/s"},
	{Metric: "h2d_4KiB_sync_us", Unit: "us", Peer: "h2d_4KiB_sync_us", Target: &Target{AtMost, 2, fromIssue}},
	// The peer's clFinish on an empty queue is the same workload.
	{Metric: "sync_empty_stream_us", Unit: "us", Peer: "empty_sync_us", Target: &Target{AtMost, 0.2, fromIssue}},
	{Metric: "cross_queue_event_roundtrip_us", Unit: "us", Peer: "cross_queue_event_roundtrip_us", Target: &Target{AtMost, 5, fromIssue}},
	// A host kernel (bench/c/bench_kernels.c) with blockDim = the host's
	// cores, against PoCL's LLVM-vectorised kernel on the same cores.
	{Metric: "vector_add_16Mi_GBps", Unit: "GB/s", Peer: "vector_add_16Mi_GBps", Target: &Target{SpeedupAtLeast, 0.8, fromKern}},
	// The same kernel launched as a user would: 40 blocks (the vector
	// cores of an Atlas A2), no resource limit; the blocks run on the
	// host's threads (NPUEMU_THREADS, docs/kernels.md).
	{Metric: "vector_add_40blk_16Mi_GBps", Unit: "GB/s", Peer: "vector_add_16Mi_GBps", Target: &Target{SpeedupAtLeast, 0.8, fromPerf}},
	// The launch workloads with the arguments as host bytes
	// (aclrtLaunchKernelWithHostArgs: Ascend C's <<<>>> launch).
	{Metric: "launch_hostargs_enqueue_ns", Unit: "ns/launch"},
	{Metric: "launch_hostargs_sync_roundtrip_us", Unit: "us"},
	// 4 threads launching the empty kernel, each into its own stream.
	{Metric: "launch_mt4_throughput", Unit: "launches/s", Target: &Target{AtLeast, 2e6, fromPerf}},
	{Metric: "stream_limit_create_destroy_ms", Unit: "ms", Target: &Target{AtMost, 50, fromIssue}},
	{Metric: "stream_limit_count", Unit: "streams"},
	{Metric: "start_to_first_malloc_ms", Unit: "ms", Target: &Target{AtMost, 20, fromIssue}},
	// replay_bench.c: 100 small async tasks issued directly vs replayed from
	// a captured model run instance; host time per task.
	{Metric: "direct_task_ns", Unit: "ns/task", Program: replayBench},
	{Metric: "replay_task_ns", Unit: "ns/task", Program: replayBench},
	{Metric: "replay_direct_ratio", Unit: "ratio", Program: replayBench, Target: &Target{AtMost, 0.5, fromRI}},
	// svm_bench.c: managed memory (docs/svm.md). Fault service on the
	// device (a kernel's footprint) and on the host (mprotect mode, bounded
	// by the platform's protection change, svm_mprotect_2MiB_us), and
	// migration of 2 MiB pages against memcpy.
	{Metric: "svm_device_fault_rate", Unit: "faults/s", Program: svmBench, Target: &Target{AtLeast, 1e5, fromSVM}},
	{Metric: "svm_host_fault_rate", Unit: "faults/s", Program: svmBench, Target: &Target{AtLeast, 1e5, fromSVM}},
	{Metric: "svm_mprotect_2MiB_us", Unit: "us", Program: svmBench},
	{Metric: "svm_migrate_GBps", Unit: "GB/s", Program: svmBench},
	{Metric: "svm_memcpy_GBps", Unit: "GB/s", Program: svmBench},
	{Metric: "svm_migrate_memcpy_ratio", Unit: "ratio", Program: svmBench, Target: &Target{AtLeast, 0.8, fromSVM}},
	// Ascend C (bench/ascendc.go): the samples' vector add (TPipe/TQue/
	// DataCopy/Add, 8 blocks) against PoCL's vector add, the Matmul API,
	// and the driver's build time of one sample kernel.
	{Metric: "ascendc_vector_add_16Mi_GBps", Unit: "GB/s", Peer: "vector_add_16Mi_GBps", Program: ascendcVaddBench, Target: &Target{SpeedupAtLeast, 0.5, fromAscendC}},
	{Metric: "ascendc_vector_add_16Mi_half_GBps", Unit: "GB/s", Program: ascendcVaddBench},
	{Metric: "ascendc_matmul_gflops", Unit: "GFLOP/s", Program: ascendcMatmulBench, Target: &Target{AtLeast, 10, fromAscendC}},
	{Metric: "ascendc_matmul_ms", Unit: "ms", Program: ascendcMatmulBench},
	{Metric: "ascendc_build_kernel_s", Unit: "s", Program: "bisheng", Target: &Target{AtMost, 3, fromAscendC}},
	{Metric: "ascendc_build_kernel_cpu_s", Unit: "s", Program: "bisheng"},
}

// Program names of the Ascend C benchmarks (bench/ascendc.go).
const (
	ascendcVaddBench   = "ascendc_vadd_bench"
	ascendcMatmulBench = "ascendc_matmul_bench"
)

// replayBench is the program name of bench/c/replay_bench.c.
const replayBench = "replay_bench"

// targetSources lists, per source of goals, the metrics it sets a target
// for, in catalogue order.
func targetSources() []string {
	var order []string
	bySource := map[string][]string{}
	for _, r := range catalogue {
		if r.Target == nil {
			continue
		}
		if _, ok := bySource[r.Target.Source]; !ok {
			order = append(order, r.Target.Source)
		}
		bySource[r.Target.Source] = append(bySource[r.Target.Source], r.Metric)
	}
	out := make([]string, len(order))
	for i, src := range order {
		out[i] = src + ": " + strings.Join(bySource[src], ", ")
	}
	return out
}

// Verdict evaluates a target: "yes", "NO", or "—" with a reason when a figure
// it needs is missing.
func (t *Target) Verdict(npu float64, npuOK bool, peer float64, peerOK bool, unit string) string {
	if t == nil {
		return "—"
	}
	if !npuOK {
		return "—"
	}
	var met bool
	switch t.Kind {
	case AtMost:
		met = npu <= t.Limit
	case AtLeast:
		met = npu >= t.Limit
	case SpeedupAtLeast:
		if !peerOK {
			return "— (needs peer)"
		}
		met = Speedup(npu, peer, unit) >= t.Limit
	}
	if met {
		return "yes"
	}
	return "NO"
}

// Describe renders the target for the table, in the metric's unit.
func (t *Target) Describe(unit string) string {
	if t == nil {
		return "—"
	}
	switch t.Kind {
	case AtMost:
		return "≤ " + FormatValue(t.Limit, unit)
	case AtLeast:
		return "≥ " + FormatValue(t.Limit, unit)
	default:
		return "≥ " + strconv.FormatFloat(t.Limit, 'f', 1, 64) + "× PoCL"
	}
}

// FormatValue prints a figure with a precision that suits its magnitude.
func FormatValue(v float64, unit string) string {
	var s string
	switch a := math.Abs(v); {
	case a >= 1000:
		s = strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 100:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1:
		s = strconv.FormatFloat(v, 'f', 2, 64)
	default:
		s = strconv.FormatFloat(v, 'g', 3, 64)
	}
	if unit == "" {
		return s
	}
	return s + " " + unit
}
