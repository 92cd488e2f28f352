package timeline_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/timeline"
)

// buildC compiles a C program (or, with shared, a kernel) against the
// repository's headers and libraries into dir.
func buildC(t *testing.T, repo, dir, src, out string, shared bool) string {
	t.Helper()
	cc, err := exec.Command("go", "env", "CC").Output()
	require.NoError(t, err)
	exe := filepath.Join(dir, out)
	args := []string{"-O2", "-Wall", "-I", filepath.Join(repo, "emu/include"), "-o", exe, src}
	if shared {
		args = append([]string{"-shared", "-fPIC"}, args...)
	} else {
		args = append(args, "-L", filepath.Join(repo, "emu/lib"), "-lascendcl")
	}
	b, err := exec.Command(strings.TrimSpace(string(cc)), args...).CombinedOutput()
	require.NoError(t, err, "%s", b)
	return exe
}

func libReady(t *testing.T) string {
	t.Helper()
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(repo, "emu/lib/libascendcl.so")); err != nil {
		t.Fatalf("emu/lib/libascendcl.so is missing: run `make lib` first")
	}
	return repo
}

// runTimeline runs exe with NPUEMU_TIMELINE=out and returns the file.
func runTimeline(t *testing.T, repo, exe, out string, env []string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH="+filepath.Join(repo, "emu/lib"), timeline.Env+"="+out, timeline.HostEnv+"=0")
	cmd.Env = append(cmd.Env, env...)
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", b)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	return data
}

type event struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat"`
	Ph   string         `json:"ph"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	Ts   float64        `json:"ts"`
	Dur  float64        `json:"dur"`
	ID   uint64         `json:"id"`
	Args map[string]any `json:"args"`
}

func parse(t *testing.T, data []byte) []event {
	t.Helper()
	var f struct {
		Events []event `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(data, &f))
	return f.Events
}

func nsOf(us float64) int64 { return int64(us*1000 + 0.5) }

// TestScriptedProgram runs testdata/script.c (two streams, an event, a
// kernel, copies) twice: the files are byte-identical, hold exactly the
// expected tasks on the expected tracks in device-clock order, and the
// summary's figures are those of the events.
func TestScriptedProgram(t *testing.T) {
	repo := libReady(t)
	dir := t.TempDir()
	so := buildC(t, repo, dir, filepath.Join(repo, "examples/kernels/vadd.c"), "vadd.so", true)
	exe := buildC(t, repo, dir, "testdata/script.c", "script", false)
	first := runTimeline(t, repo, exe, filepath.Join(dir, "a.json"), nil, so)
	second := runTimeline(t, repo, exe, filepath.Join(dir, "b.json"), nil, so)
	require.True(t, bytes.Equal(first, second), "two runs gave different timelines:\n%s\n---\n%s", first, second)
	// With the host track (wall clock) on, the rest of the file is the same.
	withHost := runTimeline(t, repo, exe, filepath.Join(dir, "h.json"), []string{timeline.HostEnv + "=1"}, so)
	// Lines compared without their separating commas: the last device line
	// is followed by host lines in one file and by the end in the other.
	lines := func(b []byte, host bool) (out []string) {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, `"cat":"host"`) == host {
				out = append(out, strings.TrimSuffix(l, ","))
			}
		}
		return out
	}
	assert.Greater(t, len(lines(withHost, true)), 10, "the host track has the API calls")
	assert.Contains(t, string(withHost), `"name":"aclrtLaunchKernelWithConfig"`)
	assert.Equal(t, lines(first, false), lines(withHost, false))

	evs := parse(t, first)
	threads := map[int]string{}
	var tasks, sdma, cores []event
	flows := map[string][]event{}
	for _, e := range evs {
		switch {
		case e.Ph == "M" && e.Name == "thread_name":
			threads[e.Tid] = e.Args["name"].(string)
		case e.Cat == "task":
			tasks = append(tasks, e)
		case e.Cat == "engine":
			sdma = append(sdma, e)
		case e.Cat == "core":
			cores = append(cores, e)
		case e.Cat == "flow":
			flows[e.Ph] = append(flows[e.Ph], e)
		}
		assert.Equal(t, timeline.DevicePID(0), e.Pid, "every event is on device 0: %+v", e)
	}
	// Exactly these tasks, in this order (sorted by device time).
	type want struct{ track, name, kind string }
	wants := []want{
		{"Stream 1", "copy", "copy"},
		{"Stream 1", "copy", "copy"},
		{"Stream 1", "record", "record"},
		{"Stream 2", "wait", "wait"},
		{"Stream 2", "vadd_f32", "kernel"},
		{"Stream 2", "copy", "copy"},
	}
	require.Len(t, tasks, len(wants))
	for i, w := range wants {
		assert.Equal(t, w.track, threads[tasks[i].Tid], "task %d", i)
		assert.Equal(t, w.name, tasks[i].Name, "task %d", i)
		assert.Equal(t, w.kind, tasks[i].Args["kind"], "task %d", i)
		if i > 0 {
			assert.LessOrEqual(t, tasks[i-1].Ts, tasks[i].Ts, "task %d is out of time order", i)
		}
	}
	end := func(e event) int64 { return nsOf(e.Ts) + nsOf(e.Dur) }
	// A stream's tasks follow each other; the wait starts when the record
	// ends; the kernel after the wait; the copy back after the kernel.
	assert.Equal(t, end(tasks[0]), nsOf(tasks[1].Ts))
	assert.Equal(t, end(tasks[1]), nsOf(tasks[2].Ts))
	assert.Equal(t, end(tasks[2]), nsOf(tasks[3].Ts))
	assert.Equal(t, end(tasks[3]), nsOf(tasks[4].Ts))
	assert.Equal(t, end(tasks[4]), nsOf(tasks[5].Ts))
	assert.EqualValues(t, 16384, tasks[0].Args["bytes"])
	assert.Equal(t, "HostToDevice", tasks[0].Args["dir"])
	assert.Equal(t, "DeviceToHost", tasks[5].Args["dir"])
	assert.EqualValues(t, 8, tasks[4].Args["blocks"])

	// The event is one flow from the record to the wait.
	require.Len(t, flows["s"], 1)
	require.Len(t, flows["f"], 1)
	assert.Equal(t, flows["s"][0].ID, flows["f"][0].ID)
	assert.Equal(t, "Stream 1", threads[flows["s"][0].Tid])
	assert.Equal(t, "Stream 2", threads[flows["f"][0].Tid])

	// Each copy also sits on its SDMA engine; the kernel's 8 blocks on 8
	// vector cores, inside the kernel's slice.
	require.Len(t, sdma, 3)
	for i, e := range sdma {
		assert.True(t, strings.HasPrefix(threads[e.Tid], "SDMA "), "%v", threads[e.Tid])
		assert.Equal(t, tasks[[]int{0, 1, 5}[i]].Ts, e.Ts)
	}
	require.Len(t, cores, 8)
	for i, e := range cores {
		assert.Equal(t, "Vector Core "+string(rune('0'+i)), threads[e.Tid])
		assert.Equal(t, "vadd_f32", e.Name)
		assert.GreaterOrEqual(t, nsOf(e.Ts), nsOf(tasks[4].Ts))
		assert.LessOrEqual(t, end(e), end(tasks[4]))
	}

	// The summary's numbers are the events'.
	path := filepath.Join(dir, "a.json")
	s, err := timeline.Summarize([]string{path}, func(n string) (io.ReadCloser, error) { return os.Open(n) })
	require.NoError(t, err)
	totals := map[string]time.Duration{}
	counts := map[string]int{}
	var all time.Duration
	for _, e := range tasks {
		totals[e.Name] += time.Duration(nsOf(e.Dur))
		counts[e.Name]++
		all += time.Duration(nsOf(e.Dur))
	}
	require.Len(t, s.Kernels, len(totals))
	for _, k := range s.Kernels {
		assert.Equal(t, counts[k.Name], k.Count, k.Name)
		assert.Equal(t, totals[k.Name], k.Total, k.Name)
		assert.Equal(t, totals[k.Name]/time.Duration(counts[k.Name]), k.Mean, k.Name)
		assert.InDelta(t, float64(totals[k.Name])/float64(all), k.Share, 1e-9, k.Name)
	}
	span := time.Duration(end(tasks[5]) - nsOf(tasks[0].Ts))
	byTrack := map[string]timeline.TrackStat{}
	for _, tr := range s.Tracks {
		byTrack[tr.Track] = tr
		assert.Equal(t, span, tr.Span)
	}
	assert.Equal(t, time.Duration(end(tasks[2])-nsOf(tasks[0].Ts)), byTrack["Stream 1"].Busy)
	assert.Equal(t, 3, byTrack["Stream 2"].Tasks)
	assert.InDelta(t, float64(byTrack["Stream 2"].Busy)/float64(span), byTrack["Stream 2"].Util, 1e-9)
	assert.Contains(t, byTrack, "AI Cores (vector, 8 used)")

	// Merging two files (two processes) doubles every count.
	m, err := timeline.Summarize([]string{path, filepath.Join(dir, "b.json")}, func(n string) (io.ReadCloser, error) { return os.Open(n) })
	require.NoError(t, err)
	for _, k := range m.Kernels {
		assert.Equal(t, 2*counts[k.Name], k.Count, k.Name)
	}
	assert.Len(t, m.Tracks, 2*len(s.Tracks))
}

// TestMstxOnTimeline runs testdata/mstx.c: its mstx ranges and mark are on
// the "mstx <domain>" tracks at the device times of the work they enclose.
func TestMstxOnTimeline(t *testing.T) {
	repo := libReady(t)
	dir := t.TempDir()
	exe := buildC(t, repo, dir, "testdata/mstx.c", "mstx", false)
	evs := parse(t, runTimeline(t, repo, exe, filepath.Join(dir, "m.json"), nil))
	threads := map[int]string{}
	var copies []event
	var mstx []event
	for _, e := range evs {
		switch {
		case e.Ph == "M" && e.Name == "thread_name":
			threads[e.Tid] = e.Args["name"].(string)
		case e.Cat == "task" && e.Name == "copy":
			copies = append(copies, e)
		case e.Cat == "mstx":
			mstx = append(mstx, e)
		}
	}
	require.Len(t, copies, 2)
	require.Len(t, mstx, 3, "%+v", mstx)
	byName := map[string]event{}
	for _, e := range mstx {
		byName[e.Name] = e
	}
	r := byName["copies"]
	assert.Equal(t, "X", r.Ph)
	assert.Equal(t, "mstx default", threads[r.Tid])
	// The range spans exactly the two copies on the stream.
	assert.Equal(t, nsOf(copies[0].Ts), nsOf(r.Ts))
	assert.Equal(t, nsOf(copies[1].Ts)+nsOf(copies[1].Dur), nsOf(r.Ts)+nsOf(r.Dur))
	s := byName["sync"]
	assert.Equal(t, "mstx phase", threads[s.Tid])
	assert.Equal(t, "phase", s.Args["domain"])
	// Without a stream: from the host's view before the synchronize (0) to
	// after it (the end of the copies).
	assert.Equal(t, int64(0), nsOf(s.Ts))
	assert.Equal(t, nsOf(copies[1].Ts)+nsOf(copies[1].Dur), nsOf(s.Ts)+nsOf(s.Dur))
	m := byName["done"]
	assert.Equal(t, "i", m.Ph)
	assert.Equal(t, "mstx default", threads[m.Tid])
}
