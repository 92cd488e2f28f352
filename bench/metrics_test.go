package main

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseMetrics(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    map[string]Sample
		wantErr string
	}{
		{
			name: "peer output",
			in:   "launch_enqueue_ns 2936.5 ns/launch\nh2d_64MiB_GBps 20.15 GB/s\n\nempty_sync_us 0.015 us\n",
			want: map[string]Sample{
				"launch_enqueue_ns": {2936.5, "ns/launch"},
				"h2d_64MiB_GBps":    {20.15, "GB/s"},
				"empty_sync_us":     {0.015, "us"},
			},
		},
		{name: "exponent", in: "sync_empty_stream_us 1.5e-05 us", want: map[string]Sample{"sync_empty_stream_us": {1.5e-05, "us"}}},
		{name: "empty", in: "", want: map[string]Sample{}},
		{name: "missing unit", in: "h2d_64MiB_GBps 20.15\n", wantErr: "line 1"},
		{name: "extra words", in: "a 1 us\nb 2 us extra\n", wantErr: "line 2"},
		{name: "not a number", in: "h2d_64MiB_GBps fast GB/s\n", wantErr: "not a finite number"},
		{name: "nan", in: "h2d_64MiB_GBps nan GB/s\n", wantErr: "not a finite number"},
		{name: "inf", in: "h2d_64MiB_GBps +Inf GB/s\n", wantErr: "not a finite number"},
		{name: "duplicate", in: "a 1 us\na 2 us\n", wantErr: "printed twice"},
		{name: "diagnostic on stdout", in: "ocl_peer.c:12 clGetPlatformIDs = -1001\n", wantErr: "not \"metric value unit\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseMetrics(strings.NewReader(tc.in))
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestMedian(t *testing.T) {
	tests := []struct {
		name string
		in   []float64
		want float64
	}{
		{"one", []float64{3}, 3},
		{"odd unsorted", []float64{9, 1, 5}, 5},
		{"even", []float64{4, 1, 3, 2}, 2.5},
		{"outlier ignored", []float64{1, 1000, 2}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]float64(nil), tc.in...)
			assert.Equal(t, tc.want, Median(in))
			assert.Equal(t, tc.in, in, "input must not be reordered")
		})
	}
	assert.True(t, math.IsNaN(Median(nil)))
}

func TestSeries(t *testing.T) {
	s := Series{}
	require.NoError(t, s.Add(map[string]Sample{"a": {3, "us"}, "b": {10, "GB/s"}}))
	require.NoError(t, s.Add(map[string]Sample{"a": {1, "us"}}))
	require.NoError(t, s.Add(map[string]Sample{"a": {2, "us"}, "b": {30, "GB/s"}}))
	v, unit, ok := s.Median("a")
	require.True(t, ok)
	assert.Equal(t, 2.0, v)
	assert.Equal(t, "us", unit)
	v, _, ok = s.Median("b")
	require.True(t, ok)
	assert.Equal(t, 20.0, v)
	_, _, ok = s.Median("c")
	assert.False(t, ok)
	assert.Equal(t, []string{"a", "b"}, s.Names())

	err := s.Add(map[string]Sample{"a": {2, "ms"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "changed unit")
}

func TestSpeedup(t *testing.T) {
	assert.InDelta(t, 2.0, Speedup(40, 20, "GB/s"), 1e-12, "rate: higher is faster")
	assert.InDelta(t, 2.0, Speedup(1, 2, "us"), 1e-12, "duration: lower is faster")
	assert.InDelta(t, 0.5, Speedup(500, 1000, "launches/s"), 1e-12)
}

func TestTargetVerdict(t *testing.T) {
	atMost := &Target{AtMost, 2, fromIssue}
	atLeast := &Target{AtLeast, 1e6, fromArch}
	ratio := &Target{SpeedupAtLeast, 1, fromIssue}
	tests := []struct {
		name   string
		target *Target
		npu    float64
		npuOK  bool
		peer   float64
		peerOK bool
		unit   string
		want   string
	}{
		{"at most met", atMost, 1.5, true, 0, false, "us", "yes"},
		{"at most equal", atMost, 2, true, 0, false, "us", "yes"},
		{"at most missed", atMost, 2.5, true, 40, true, "us", "NO"},
		{"at least met", atLeast, 2e6, true, 0, false, "launches/s", "yes"},
		{"at least missed", atLeast, 2.5e5, true, 0, false, "launches/s", "NO"},
		{"ratio met", ratio, 21, true, 20, true, "GB/s", "yes"},
		{"ratio missed", ratio, 19, true, 20, true, "GB/s", "NO"},
		{"ratio without peer", ratio, 21, true, 0, false, "GB/s", "— (needs peer)"},
		{"no npuemu figure", atMost, 0, false, 40, true, "us", "—"},
		{"no target", nil, 1, true, 1, true, "us", "—"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.target.Verdict(tc.npu, tc.npuOK, tc.peer, tc.peerOK, tc.unit))
		})
	}
}

func TestTargetDescribe(t *testing.T) {
	assert.Equal(t, "≤ 0.2 us", (&Target{AtMost, 0.2, ""}).Describe("us"))
	assert.Equal(t, "≤ 50.00 ms", (&Target{AtMost, 50, ""}).Describe("ms"))
	assert.Equal(t, "≥ 1000000 launches/s", (&Target{AtLeast, 1e6, ""}).Describe("launches/s"))
	assert.Equal(t, "≥ 1.0× PoCL", (&Target{SpeedupAtLeast, 1, ""}).Describe("GB/s"))
	assert.Equal(t, "—", (*Target)(nil).Describe("us"))
}

func TestFormatValue(t *testing.T) {
	assert.Equal(t, "270074 launches/s", FormatValue(270074.4, "launches/s"))
	assert.Equal(t, "123.5 us", FormatValue(123.45, "us"))
	assert.Equal(t, "20.15 GB/s", FormatValue(20.149, "GB/s"))
	assert.Equal(t, "0.0152 us", FormatValue(0.01523, "us"))
	assert.Equal(t, "3.00", FormatValue(3, ""))
}

func TestCatalogue(t *testing.T) {
	rows := map[string]Row{}
	for _, r := range catalogue {
		require.NotContains(t, rows, r.Metric, "metric listed twice")
		require.NotEmpty(t, r.Unit, r.Metric)
		rows[r.Metric] = r
	}
	for _, m := range []string{"h2d_64MiB_GBps", "d2h_64MiB_GBps", "h2d_4KiB_sync_us", "cross_queue_event_roundtrip_us",
		"sync_empty_stream_us", "stream_limit_create_destroy_ms", "start_to_first_malloc_ms"} {
		if assert.Contains(t, rows, m) {
			assert.Empty(t, rows[m].Pending, "%s is measured today", m)
			assert.NotNil(t, rows[m].Target, "%s has a goal in issue #3", m)
		}
	}
	for _, m := range []string{"launch_enqueue_ns", "launch_throughput", "launch_sync_roundtrip_us", "vector_add_16Mi_GBps"} {
		if assert.Contains(t, rows, m) {
			assert.Empty(t, rows[m].Pending, "%s is measured today", m)
			assert.NotNil(t, rows[m].Target, m)
			assert.Equal(t, m, rows[m].Peer)
		}
	}
	assert.Equal(t, "empty_sync_us", rows["sync_empty_stream_us"].Peer)
	assert.Equal(t, []string{
		"ARCHITECTURE.md hot-path budget: launch_enqueue_ns, launch_throughput, launch_sync_roundtrip_us",
		"issue #3: h2d_64MiB_GBps, d2h_64MiB_GBps, h2d_4KiB_sync_us, sync_empty_stream_us, cross_queue_event_roundtrip_us, stream_limit_create_destroy_ms, start_to_first_malloc_ms",
		"issue #4: vector_add_16Mi_GBps",
		"issue #15: vector_add_40blk_16Mi_GBps, launch_mt4_throughput",
		"issue #6: replay_direct_ratio",
		"issue #5: svm_device_fault_rate, svm_host_fault_rate, svm_migrate_memcpy_ratio",
		"issue #11: ascendc_vector_add_16Mi_GBps, ascendc_matmul_gflops, ascendc_build_kernel_s",
	}, targetSources())
}

// tableRow finds the table line of a metric in a report.
func tableRow(t *testing.T, out, metric string) []string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) > 2 && strings.TrimSpace(cells[1]) == metric {
			var trimmed []string
			for _, c := range cells[1 : len(cells)-1] {
				trimmed = append(trimmed, strings.TrimSpace(c))
			}
			return trimmed
		}
	}
	require.Failf(t, "row missing", "no row for %s in\n%s", metric, out)
	return nil
}

func TestReportWrite(t *testing.T) {
	npu, peer, limits := Series{}, Series{}, Series{}
	for _, v := range []float64{22, 21, 30} {
		require.NoError(t, npu.Add(map[string]Sample{
			"h2d_64MiB_GBps": {v, "GB/s"}, "d2h_64MiB_GBps": {v / 2, "GB/s"},
			"sync_empty_stream_us": {0.1, "us"}, "h2d_4KiB_sync_us": {3, "us"},
			"brand_new_metric": {7, "us"},
		}))
	}
	require.NoError(t, peer.Add(map[string]Sample{
		"h2d_64MiB_GBps": {20, "GB/s"}, "d2h_64MiB_GBps": {20, "GB/s"}, "empty_sync_us": {0.02, "us"},
		"h2d_4KiB_sync_us": {40, "us"}, "launch_enqueue_ns": {3000, "ns/launch"}, "peer_only_metric": {5, "ms"},
	}))
	require.NoError(t, limits.Add(map[string]Sample{"memcpy_64MiB_GBps": {6.2, "GB/s"}}))
	rep := &Report{Runs: 3, Npu: npu, Peer: peer, Limits: limits, Pages: "/dev/shm/npuemu-node: 4 KiB"}
	var buf bytes.Buffer
	rep.Write(&buf)
	out := buf.String()
	assert.Contains(t, out, "Device memory pages (docs/node.md, \"Huge pages\"): /dev/shm/npuemu-node: 4 KiB\n")

	assert.Equal(t, []string{"h2d_64MiB_GBps", "22.00 GB/s", "20.00 GB/s", "1.10×", "≥ 1.0× PoCL", "yes"}, tableRow(t, out, "h2d_64MiB_GBps"))
	assert.Equal(t, []string{"d2h_64MiB_GBps", "11.00 GB/s", "20.00 GB/s", "0.55×", "≥ 1.0× PoCL", "NO"}, tableRow(t, out, "d2h_64MiB_GBps"))
	assert.Equal(t, []string{"sync_empty_stream_us", "0.1 us", "0.02 us", "0.20×", "≤ 0.2 us", "yes"}, tableRow(t, out, "sync_empty_stream_us"))
	assert.Equal(t, []string{"h2d_4KiB_sync_us", "3.00 us", "40.00 us", "13.33×", "≤ 2.00 us", "NO"}, tableRow(t, out, "h2d_4KiB_sync_us"))
	assert.Equal(t, []string{"launch_enqueue_ns", "—", "3000 ns/launch", "—", "≤ 500.0 ns/launch", "—"}, tableRow(t, out, "launch_enqueue_ns"))
	assert.Equal(t, []string{"start_to_first_malloc_ms", "—", "—", "—", "≤ 20.00 ms", "—"}, tableRow(t, out, "start_to_first_malloc_ms"),
		"a metric nobody printed keeps its target and has no verdict")
	assert.Equal(t, "7.00 us", tableRow(t, out, "brand_new_metric")[1], "unknown npuemu metrics are appended")
	assert.Equal(t, "5.00 ms", tableRow(t, out, "peer_only_metric")[2], "unknown peer metrics are appended")
	assert.Contains(t, out, "memcpy_64MiB_GBps")
	assert.NotContains(t, out, "column missing")
}

func TestReportWriteMissingColumns(t *testing.T) {
	rep := &Report{Runs: 1, Npu: Series{}, Peer: Series{}, Limits: Series{},
		NpuErr:  errors.New("emu/lib/libascendcl.so is missing: build the library first with `make lib`"),
		PeerErr: errors.New("PoCL peer not built\ninstall it with bench/install-pocl.sh (as root)")}
	var buf bytes.Buffer
	rep.Write(&buf)
	out := buf.String()
	assert.Contains(t, out, "npuemu column missing: emu/lib/libascendcl.so is missing")
	assert.Contains(t, out, "bench/install-pocl.sh")
	row := tableRow(t, out, "h2d_64MiB_GBps")
	assert.Equal(t, []string{"—", "—", "—"}, row[1:4])
	assert.Equal(t, "—", tableRow(t, out, "launch_enqueue_ns")[1], "no pending note when npuemu did not run at all")
	assert.NotContains(t, out, "Machine limits")
}
