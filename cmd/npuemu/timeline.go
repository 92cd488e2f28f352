package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/npuemu/npuemu/timeline"
)

func init() {
	commands["timeline"] = command{
		summary: "summarise NPUEMU_TIMELINE files: npuemu timeline summary FILE [FILE...]",
		run:     runTimeline,
	}
}

const timelineUsage = `usage: npuemu timeline summary FILE [FILE...]

Reads the trace files written by programs run with NPUEMU_TIMELINE=FILE (one
per process; several are merged) and prints, per task name (kernels by
function name, other tasks by kind), the count, the total and mean device
time and the share of all task time; then, per device, the utilization of
each stream, SDMA engine and AI Core pool: busy time over the device's span
(docs/timeline.md).`

func runTimeline(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("timeline", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	fs.Usage = func() { fmt.Fprintln(os.Stderr, timelineUsage) }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() < 2 || fs.Arg(0) != "summary" {
		fs.Usage()
		return 2
	}
	s, err := timeline.Summarize(fs.Args()[1:], func(n string) (io.ReadCloser, error) { return os.Open(n) })
	if err != nil {
		fmt.Fprintf(os.Stderr, "npuemu timeline: %v\n", err)
		return 1
	}
	s.Print(out)
	return 0
}
