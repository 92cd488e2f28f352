package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/npuemu/npuemu/abi"
)

func init() {
	commands["trace"] = command{
		summary: "summarise an NPUEMU_TRACE call trace: npuemu trace summary FILE",
		run:     runTrace,
	}
}

const traceUsage = `usage: npuemu trace summary FILE

Reads the JSON lines written by a program run with NPUEMU_TRACE=FILE and
prints, per symbol, the number of calls, the calls that returned an error
(a non-zero aclError / drvError_t), the total and the mean time, sorted by
total time.`

func runTrace(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("trace", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	fs.Usage = func() { fmt.Fprintln(os.Stderr, traceUsage) }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 2 || fs.Arg(0) != "summary" {
		fs.Usage()
		return 2
	}
	f, err := os.Open(fs.Arg(1))
	if err != nil {
		fmt.Fprintf(os.Stderr, "npuemu trace: %v\n", err)
		return 1
	}
	defer f.Close()
	rows, err := summarize(f)
	if err != nil {
		fmt.Fprintf(os.Stderr, "npuemu trace: %s:%v\n", fs.Arg(1), err)
		return 1
	}
	printSummary(out, rows)
	return 0
}

// traceCall is the part of a trace line the summary reads.
type traceCall struct {
	Sym string          `json:"sym"`
	Ret json.RawMessage `json:"ret"`
	Ns  *int64          `json:"ns"`
}

// symbolStats is one row of the summary.
type symbolStats struct {
	Sym    string
	Calls  int
	Errors int
	Total  time.Duration
}

func (s symbolStats) mean() time.Duration { return s.Total / time.Duration(s.Calls) }

// summarize reads trace lines and returns one row per symbol, by total time
// (then by name). A call is an error when its symbol returns an error code
// (aclError, drvError_t, DVresult) and "ret" is not 0.
func summarize(r io.Reader) ([]symbolStats, error) {
	stats := map[string]*symbolStats{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var c traceCall
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			return nil, fmt.Errorf("%d: not a trace line: %v", n, err)
		}
		if c.Sym == "" || c.Ns == nil {
			return nil, fmt.Errorf("%d: a trace line needs \"sym\" and \"ns\"", n)
		}
		s := stats[c.Sym]
		if s == nil {
			s = &symbolStats{Sym: c.Sym}
			stats[c.Sym] = s
		}
		s.Calls++
		s.Total += time.Duration(*c.Ns)
		if returnsCode(c.Sym) && len(c.Ret) > 0 && string(c.Ret) != "0" {
			s.Errors++
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	rows := make([]symbolStats, 0, len(stats))
	for _, s := range stats {
		rows = append(rows, *s)
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Total != rows[j].Total {
			return rows[i].Total > rows[j].Total
		}
		return rows[i].Sym < rows[j].Sym
	})
	return rows, nil
}

// returnsCode reports whether sym returns an error code, so that a non-zero
// result is a failure (a pointer or a count is not).
func returnsCode(sym string) bool {
	s, ok := abi.SymbolByName(sym)
	if !ok {
		return false
	}
	switch strings.TrimSpace(s.Return) {
	case "aclError", "drvError_t", "DVresult":
		return true
	case "int":
		return s.Lib == "dsmi"
	}
	return false
}

func printSummary(w io.Writer, rows []symbolStats) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "SYMBOL\tCALLS\tERRORS\tTOTAL\tMEAN\t")
	var calls, errs int
	var total time.Duration
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t\n", r.Sym, r.Calls, r.Errors, r.Total, r.mean())
		calls += r.Calls
		errs += r.Errors
		total += r.Total
	}
	fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t\t\n", "total", calls, errs, total)
	tw.Flush()
}
