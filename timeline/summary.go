package timeline

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// The summary of `npuemu timeline summary FILE...` (docs/timeline.md).

// KernelStat is one task name's line: kernels by function name, other
// tasks by kind (copy, memset, record, wait, ...).
type KernelStat struct {
	Name  string
	Count int
	Total time.Duration
	Mean  time.Duration
	Share float64 // Total / the device time of every task in the files
}

// TrackStat is the utilization of one stream or engine track: busy time
// over the span of its device (first task start to last task end).
type TrackStat struct {
	Process string // "NPU 0" (prefixed with the file's name when several files are merged)
	Track   string // "Stream 3", "SDMA 0", "AI Cores (vector, 8 used)"
	Tasks   int
	Busy    time.Duration
	Span    time.Duration
	Util    float64
}

// Summary is what Summarize computes.
type Summary struct {
	Kernels []KernelStat
	Tracks  []TrackStat
	Total   time.Duration // device time of every task
}

type traceFile struct {
	Events []struct {
		Name string          `json:"name"`
		Cat  string          `json:"cat"`
		Ph   string          `json:"ph"`
		Pid  int             `json:"pid"`
		Tid  int             `json:"tid"`
		Ts   float64         `json:"ts"`
		Dur  float64         `json:"dur"`
		Args json.RawMessage `json:"args"`
	} `json:"traceEvents"`
}

func ns(us float64) time.Duration { return time.Duration(math.Round(us * 1000)) }

type trackKey struct {
	proc  string
	track string
	order int
}

type trackAcc struct {
	tasks int
	busy  time.Duration
	cores map[int]bool
}

// Summarize reads the timeline files (one per process) named by names,
// opened with open, and merges them.
func Summarize(names []string, open func(string) (io.ReadCloser, error)) (*Summary, error) {
	kern := map[string]*KernelStat{}
	tracks := map[trackKey]*trackAcc{}
	spans := map[string][2]time.Duration{}
	var total time.Duration
	for _, name := range names {
		rc, err := open(name)
		if err != nil {
			return nil, err
		}
		var f traceFile
		err = json.NewDecoder(rc).Decode(&f)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: not a timeline file: %v", name, err)
		}
		procs := map[int]string{}
		threads := map[[2]int]string{}
		for _, e := range f.Events {
			if e.Ph != "M" {
				continue
			}
			var a struct{ Name string }
			_ = json.Unmarshal(e.Args, &a)
			switch e.Name {
			case "process_name":
				procs[e.Pid] = strings.TrimSuffix(a.Name, " (device clock)")
			case "thread_name":
				threads[[2]int{e.Pid, e.Tid}] = a.Name
			}
		}
		prefix := ""
		if len(names) > 1 {
			prefix = name + ": "
		}
		for _, e := range f.Events {
			if e.Ph != "X" {
				continue
			}
			proc := prefix + procs[e.Pid]
			start, dur := ns(e.Ts), ns(e.Dur)
			switch e.Cat {
			case "task":
				k := kern[e.Name]
				if k == nil {
					k = &KernelStat{Name: e.Name}
					kern[e.Name] = k
				}
				k.Count++
				k.Total += dur
				total += dur
				sp, ok := spans[proc]
				if !ok {
					sp = [2]time.Duration{start, start + dur}
				}
				spans[proc] = [2]time.Duration{min(sp[0], start), max(sp[1], start+dur)}
				acc(tracks, trackKey{proc, threads[[2]int{e.Pid, e.Tid}], e.Tid}, dur, -1)
			case "engine":
				acc(tracks, trackKey{proc, threads[[2]int{e.Pid, e.Tid}], e.Tid}, dur, -1)
			case "core":
				kind, order := "cube", TidCubeCore
				if e.Tid >= TidVectorCore {
					kind, order = "vector", TidVectorCore
				}
				acc(tracks, trackKey{proc, "AI Cores (" + kind + ")", order}, dur, e.Tid)
			}
		}
	}
	s := &Summary{Total: total}
	for _, k := range kern {
		k.Mean = k.Total / time.Duration(k.Count)
		if total > 0 {
			k.Share = float64(k.Total) / float64(total)
		}
		s.Kernels = append(s.Kernels, *k)
	}
	sort.Slice(s.Kernels, func(i, j int) bool {
		a, b := s.Kernels[i], s.Kernels[j]
		if a.Total != b.Total {
			return a.Total > b.Total
		}
		return a.Name < b.Name
	})
	keys := make([]trackKey, 0, len(tracks))
	for k := range tracks {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].proc != keys[j].proc {
			return keys[i].proc < keys[j].proc
		}
		return keys[i].order < keys[j].order
	})
	for _, k := range keys {
		a := tracks[k]
		sp := spans[k.proc]
		t := TrackStat{Process: k.proc, Track: k.track, Tasks: a.tasks, Busy: a.busy, Span: sp[1] - sp[0]}
		capacity := t.Span
		if a.cores != nil {
			t.Track = fmt.Sprintf("%s, %d used)", strings.TrimSuffix(k.track, ")"), len(a.cores))
			capacity *= time.Duration(len(a.cores))
		}
		if capacity > 0 {
			t.Util = float64(t.Busy) / float64(capacity)
		}
		s.Tracks = append(s.Tracks, t)
	}
	return s, nil
}

func acc(m map[trackKey]*trackAcc, k trackKey, dur time.Duration, core int) {
	a := m[k]
	if a == nil {
		a = &trackAcc{}
		m[k] = a
	}
	a.tasks++
	a.busy += dur
	if core >= 0 {
		if a.cores == nil {
			a.cores = map[int]bool{}
		}
		a.cores[core] = true
	}
}

func us(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/1e3) }

// Print writes the summary as two aligned tables.
func (s *Summary) Print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "task\tcount\ttotal(us)\tmean(us)\tshare(%)\t")
	for _, k := range s.Kernels {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%.2f\t\n", k.Name, k.Count, us(k.Total), us(k.Mean), 100*k.Share)
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "device\ttrack\ttasks\tbusy(us)\tspan(us)\tutilization(%)\t")
	for _, t := range s.Tracks {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%.2f\t\n", t.Process, t.Track, t.Tasks, us(t.Busy), us(t.Span), 100*t.Util)
	}
	tw.Flush()
}
