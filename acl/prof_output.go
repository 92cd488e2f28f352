package acl

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/timeline"
)

// The files aclprofStop writes into PROF_.../mindstudio_profiler_output,
// with msprof's names and columns (prof-api.md §9). Times are the device
// clock in µs (the emulator's virtual time; msprof's are wall-clock µs
// since the epoch): the same numbers as the NPUEMU_TIMELINE trace.

// usec3 renders d in µs with three decimals, truncated (msprof's format).
func usec3(d time.Duration) string {
	ns := int64(d)
	return fmt.Sprintf("%d.%03d", ns/1000, ns%1000)
}

// taskType is msprof's Task Type of a task.
func msprofTaskType(t *timeline.Task) string {
	switch t.Kind {
	case "kernel":
		switch t.Core {
		case "vector":
			return "AI_VECTOR_CORE"
		case "mix":
			return "MIX_AIC"
		}
		return "AI_CORE"
	case "copy", "copy2d":
		return "MEMCPY_ASYNC"
	case "memset":
		return "MEMSET"
	case "record":
		return "EVENT_RECORD"
	case "wait":
		return "EVENT_WAIT"
	case "reset":
		return "EVENT_RESET"
	case "notify record", "cnt notify record":
		return "NOTIFY_RECORD"
	case "notify wait", "cnt notify wait":
		return "NOTIFY_WAIT"
	case "host":
		return "HOST_FUNC"
	}
	return strings.ToUpper(strings.ReplaceAll(t.Kind, " ", "_"))
}

// modelNone is the Model ID of single-operator tasks.
const modelNone = "4294967295"

// pipeColumns are the PipeUtilization columns of op_summary (A2 class).
var pipeColumns = []struct{ col, pipe string }{
	{"aic_mac_time(us)", "Cube"}, {"aic_scalar_time(us)", "Scalar"}, {"aic_mte1_time(us)", "MTE1"},
	{"aic_mte2_time(us)", "MTE2"}, {"aic_fixpipe_time(us)", "FixPipe"},
	{"aiv_vec_time(us)", "Vector"}, {"aiv_scalar_time(us)", "Scalar"}, {"aiv_mte2_time(us)", "MTE2"},
	{"aiv_mte3_time(us)", "MTE3"},
}

func writeProfOutput(dir string, cfg *profConfig, tasks []timeline.Task, tx []txEvent) error {
	out := filepath.Join(dir, "mindstudio_profiler_output")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	ts := time.Now().Format("20060102150405")
	var files []string
	write := func(name string, fill func(w *bufio.Writer)) error {
		f, err := os.Create(filepath.Join(out, name))
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		fill(w)
		if err := w.Flush(); err != nil {
			f.Close()
			return err
		}
		files = append(files, name)
		return f.Close()
	}
	sort.SliceStable(tasks, func(i, j int) bool {
		if tasks[i].Dev != tasks[j].Dev {
			return tasks[i].Dev < tasks[j].Dev
		}
		return tasks[i].Start < tasks[j].Start
	})
	var ops []timeline.Task
	for _, t := range tasks {
		if t.Kind == "kernel" {
			ops = append(ops, t)
		}
	}
	timing := cfg.types&(abi.ACL_PROF_TASK_TIME|abi.ACL_PROF_TASK_TIME_L0) != 0
	if timing {
		pmu := cfg.types&abi.ACL_PROF_AICORE_METRICS != 0 && cfg.metrics == abi.ACL_AICORE_PIPE_UTILIZATION
		if err := write("op_summary_"+ts+".csv", func(w *bufio.Writer) { opSummary(w, ops, pmu) }); err != nil {
			return err
		}
		if err := write("op_statistic_"+ts+".csv", func(w *bufio.Writer) { opStatistic(w, ops) }); err != nil {
			return err
		}
		if err := write("task_time_"+ts+".csv", func(w *bufio.Writer) { taskTime(w, tasks) }); err != nil {
			return err
		}
		if err := write("msprof_"+ts+".json", func(w *bufio.Writer) { msprofJSON(w, tasks, tx) }); err != nil {
			return err
		}
	}
	if cfg.types&abi.ACL_PROF_MSPROFTX != 0 {
		if err := write("msprof_tx_"+ts+".csv", func(w *bufio.Writer) { txCSV(w, tx) }); err != nil {
			return err
		}
	}
	return write("README.txt", func(w *bufio.Writer) {
		fmt.Fprintln(w, "Exported by npuemu's aclprofStop (docs/profiling.md). Times are the emulated device clock in us.")
		for _, f := range files {
			fmt.Fprintln(w, f)
		}
	})
}

func opSummary(w *bufio.Writer, ops []timeline.Task, pmu bool) {
	w.WriteString("Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Num,Mix Block Num,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID")
	if pmu {
		w.WriteString(",aicore_time(us),aic_total_cycles")
		for _, c := range pipeColumns {
			w.WriteString("," + c.col)
		}
	}
	w.WriteString("\n")
	for i, t := range ops {
		wait := "0"
		if i > 0 && ops[i-1].Dev == t.Dev {
			p := ops[i-1]
			wait = fmt.Sprintf("%.6f", float64(max(t.Start-p.Start-(p.End-p.Start), 0))/1e3)
		}
		mix := uint32(0)
		if t.Core == "mix" {
			mix = t.Blocks * uint32(t.VecPer)
		}
		fmt.Fprintf(w, "%d,%s,%d,%d,%s,%s,N/A,%s,%s\t,%s,%s,%d,%d,NO,N/A,N/A,N/A,N/A,N/A,N/A,N/A",
			t.Dev, modelNone, t.Seq, t.Stream, csvField(t.Name), csvField(t.Name), msprofTaskType(&t),
			usec3(t.Start), usec3(t.End-t.Start), wait, t.Blocks, mix)
		if pmu {
			fmt.Fprintf(w, ",%s,%s", usec3(t.End-t.Start), pipeTotal(t.Pipes))
			for _, c := range pipeColumns {
				fmt.Fprintf(w, ",%s", pipeTime(t.Pipes, c.pipe, c.col))
			}
		}
		w.WriteString("\n")
	}
}

// pipeTime is the busy time of pipe in µs, N/A when the kernel reported
// none; aic_ columns belong to cube cores and aiv_ to vector cores, which
// the emulator does not tell apart, so both show the kernel's figure.
func pipeTime(ps []timeline.Pipe, pipe, col string) string {
	for _, p := range ps {
		if strings.EqualFold(p.Name, pipe) {
			return usec3(time.Duration(float64(p.Cycles) * 1e9 / timeline.CoreClockHz))
		}
	}
	return "N/A"
}

func pipeTotal(ps []timeline.Pipe) string {
	if len(ps) == 0 {
		return "N/A"
	}
	var n uint64
	for _, p := range ps {
		n = max(n, p.Cycles)
	}
	return strconv.FormatUint(n, 10)
}

// csvField quotes s when it holds a comma or a quote.
func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

func opStatistic(w *bufio.Writer, ops []timeline.Task) {
	type acc struct {
		dev              int
		name, core       string
		n                int
		total, min, maxd time.Duration
	}
	m := map[string]*acc{}
	var all time.Duration
	for _, t := range ops {
		k := fmt.Sprintf("%d\x00%s\x00%s", t.Dev, t.Name, msprofTaskType(&t))
		a := m[k]
		d := t.End - t.Start
		if a == nil {
			a = &acc{dev: t.Dev, name: t.Name, core: msprofTaskType(&t), min: d}
			m[k] = a
		}
		a.n++
		a.total += d
		a.min, a.maxd = min(a.min, d), max(a.maxd, d)
		all += d
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return m[keys[i]].total > m[keys[j]].total || (m[keys[i]].total == m[keys[j]].total && keys[i] < keys[j])
	})
	w.WriteString("Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n")
	for _, k := range keys {
		a := m[k]
		ratio := 0.0
		if all > 0 {
			ratio = 100 * float64(a.total) / float64(all)
		}
		fmt.Fprintf(w, "%d,%s,%s,%d,%s,%s,%s,%s,%.3f\n", a.dev, csvField(a.name), a.core, a.n, usec3(a.total), usec3(a.min),
			usec3(a.total/time.Duration(a.n)), usec3(a.maxd), ratio)
	}
}

func taskTime(w *bufio.Writer, tasks []timeline.Task) {
	w.WriteString("Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)\n")
	for _, t := range tasks {
		name := t.Name
		if name == "" {
			name = t.Kind
		}
		fmt.Fprintf(w, "%d,%s,%s,%d,%d,%s,%s,%s\n", t.Dev, csvField(name), msprofTaskType(&t), t.Stream, t.Seq,
			usec3(t.End-t.Start), usec3(t.Start), usec3(t.End))
	}
}

// msprofPID is msprof's pid encoding: (pid << 10) | (sort index << 5) | dev.
func msprofPID(sortIndex, dev int) int { return os.Getpid()<<10 | sortIndex<<5 | dev }

// msprofJSON writes the Chrome-trace array of msprof: the Ascend Hardware
// track (one thread per stream) and the host tx track.
func msprofJSON(w *bufio.Writer, tasks []timeline.Task, tx []txEvent) {
	var lines []string
	devs := map[int]map[int]bool{}
	for _, t := range tasks {
		if devs[t.Dev] == nil {
			devs[t.Dev] = map[int]bool{}
		}
		devs[t.Dev][t.Stream] = true
		name := t.Name
		if name == "" {
			name = t.Kind
		}
		args := fmt.Sprintf(`{"Model Id":%s,"Task Type":%q,"Physic Stream Id":%d,"Task Id":%d,"Batch Id":0,"Subtask Id":4294967295,"connection_id":0`,
			modelNone, msprofTaskType(&t), t.Stream, t.Seq)
		if t.Bytes > 0 {
			args += fmt.Sprintf(`,"size(B)":%d`, t.Bytes)
		}
		lines = append(lines, fmt.Sprintf(`{"name":%s,"pid":%d,"tid":%d,"ts":"%s","dur":%s,"ph":"X","args":%s}}`,
			strconv.Quote(name), msprofPID(14, t.Dev), t.Stream, usec3(t.Start), usec3(t.End-t.Start), args))
	}
	for dev, streams := range devs {
		pid := msprofPID(14, dev)
		lines = append(lines, fmt.Sprintf(`{"name":"process_name","pid":%d,"tid":0,"ph":"M","args":{"name":"Ascend Hardware"}}`, pid),
			fmt.Sprintf(`{"name":"process_labels","pid":%d,"tid":0,"ph":"M","args":{"labels":"NPU %d"}}`, pid, dev),
			fmt.Sprintf(`{"name":"process_sort_index","pid":%d,"tid":0,"ph":"M","args":{"sort_index":14}}`, pid))
		for s := range streams {
			lines = append(lines, fmt.Sprintf(`{"name":"thread_name","pid":%d,"tid":%d,"ph":"M","args":{"name":"Stream %d"}}`, pid, s, s))
		}
	}
	hostPID := msprofPID(6, 31)
	for _, e := range tx {
		lines = append(lines, fmt.Sprintf(`{"name":%s,"pid":%d,"tid":%d,"ts":"%s","dur":%s,"ph":"X","args":{"event_type":%q,"domain":%s}}`,
			strconv.Quote(e.msg), hostPID, e.tid, usec3(time.Duration(e.start)), usec3(time.Duration(e.end-e.start)), e.eventType, strconv.Quote(e.domain)))
	}
	if len(tx) > 0 {
		lines = append(lines, fmt.Sprintf(`{"name":"process_name","pid":%d,"tid":0,"ph":"M","args":{"name":%s}}`, hostPID, strconv.Quote(filepath.Base(os.Args[0]))),
			fmt.Sprintf(`{"name":"process_labels","pid":%d,"tid":0,"ph":"M","args":{"labels":"CPU"}}`, hostPID),
			fmt.Sprintf(`{"name":"process_sort_index","pid":%d,"tid":0,"ph":"M","args":{"sort_index":6}}`, hostPID))
	}
	w.WriteString("[" + strings.Join(lines, ",") + "]\n")
}

func txCSV(w *bufio.Writer, tx []txEvent) {
	w.WriteString("Device_id,pid,tid,category,event_type,payload_type,payload_value,Start_time(us),End_time(us),message_type,message,domain,Device Start_time(us),Device End_time(us)\n")
	for _, e := range tx {
		dev, ds, de := "host", "N/A", "N/A"
		if e.dev >= 0 {
			dev, ds, de = strconv.Itoa(e.dev), usec3(e.devStart), usec3(e.devEnd)
		}
		fmt.Fprintf(w, "%s,%d,%d,%d,%s,0,0,%s,%s,0,%s,%s,%s,%s\n", dev, os.Getpid(), e.tid, e.category, e.eventType,
			usec3(time.Duration(e.start)), usec3(time.Duration(e.end)), csvField(e.msg), csvField(e.domain), ds, de)
	}
}
