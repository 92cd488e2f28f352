package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/tsfw"
)

func init() {
	commands["info"] = command{
		summary: "print the emulated node (devices, memory, cores) like npu-smi info",
		run:     runInfo,
	}
}

// runInfo loads the configuration the library would load (NPUEMU_CONFIG,
// NPUEMU_DEVICES, NPUEMU_SOC, ASCEND_RT_VISIBLE_DEVICES) and prints the node it describes. In a fresh
// process no device is opened, so every device shows 0 MiB in use.
func runInfo(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("info", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: npuemu info\n\nPrints the node configured by NPUEMU_CONFIG, NPUEMU_DEVICES, NPUEMU_SOC\nand ASCEND_RT_VISIBLE_DEVICES.")
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	cfg, err := emu.LoadConfig()
	if err != nil {
		fmt.Fprintf(os.Stderr, "npuemu info: %v\n", err)
		return 1
	}
	node, err := emu.NewNode(cfg, emu.ProcessPlatform())
	if err != nil {
		fmt.Fprintf(os.Stderr, "npuemu info: %v\n", err)
		return 1
	}
	defer node.Close()
	printInfo(out, node)
	return 0
}

// infoColumns are the device table's headings; tests find rows by them.
// NPU is the id ACL calls take; Phy-ID the physical device it is (they
// differ under ASCEND_RT_VISIBLE_DEVICES).
var infoColumns = []string{"NPU", "Phy-ID", "Name", "State", "HBM-Usage(MiB)", "AICore(cube/vector)", "AICPU", "Streams"}

// printInfo writes the node as an npu-smi-like table.
func printInfo(w io.Writer, n *emu.Node) {
	const mib = 1 << 20
	soc := n.SoC()
	cfg := n.Config()
	fmt.Fprintf(w, "Node:          %d x %s (family %s, NPU arch %d)\n", n.DeviceCount(), soc.Name, soc.Family, soc.NpuArch)
	fmt.Fprintf(w, "Configuration: %s\n", cfg.Source)
	if cfg.Visible != nil {
		fmt.Fprintf(w, "Visible:       %s keeps %d of %d devices: physical %s are NPU 0..%d\n",
			emu.EnvVisible, len(cfg.Visible), cfg.PhysicalCount(), strings.Trim(fmt.Sprint(cfg.Visible), "[]"), len(cfg.Visible)-1)
	}
	fmt.Fprintf(w, "Per device:    HBM %d MiB nominal, %d MiB usable; L2 %d MiB; AI core clock %d MHz; %d SDMA engines\n",
		soc.HBMBytes/mib, n.HBMTotal()/mib, soc.L2Bytes/mib, soc.CubeMHz, soc.SDMAEngines)
	fmt.Fprintf(w, "Limits:        %d streams, %d events, %d notifies; stream priority %d (highest) to %d (lowest)\n",
		soc.MaxStreams, soc.MaxEvents, soc.MaxNotifies, soc.PriorityGreatest, soc.PriorityLeast)
	fmt.Fprintf(w, "Host threads:  %d run kernel blocks and split copies (%s)\n", tsfw.HostThreads(), tsfw.HostThreadsReason())
	printProtect(w) // info_protect.go
	fmt.Fprintf(w, "Device pages:  %s\n", devicePages(n))

	rows := [][]string{infoColumns}
	for id := 0; id < n.DeviceCount(); id++ {
		state, used := "idle", uint64(0)
		if d := n.Opened(id); d != nil {
			state, used = "open", d.HBM.Used()
		}
		rows = append(rows, []string{
			fmt.Sprint(id), fmt.Sprint(cfg.PhysicalID(id)), soc.Name, state,
			fmt.Sprintf("%d / %d", used/mib, n.HBMTotal()/mib),
			fmt.Sprintf("%d / %d", soc.CubeCores, soc.VectorCores),
			fmt.Sprint(soc.AICPUs),
			fmt.Sprint(soc.MaxStreams),
		})
	}
	writeTable(w, rows)
	printSVM(w, n) // info_svm.go
}

// writeTable draws rows (the first is the heading) in an npu-smi-style box.
func writeTable(w io.Writer, rows [][]string) {
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	rule := func(ch string) {
		var b strings.Builder
		for _, n := range width {
			b.WriteString("+" + strings.Repeat(ch, n+2))
		}
		fmt.Fprintln(w, b.String()+"+")
	}
	line := func(r []string) {
		var b strings.Builder
		for i, c := range r {
			fmt.Fprintf(&b, "| %-*s ", width[i], c)
		}
		fmt.Fprintln(w, b.String()+"|")
	}
	rule("-")
	line(rows[0])
	rule("=")
	for _, r := range rows[1:] {
		line(r)
	}
	rule("-")
}

// devicePages says what pages device memory gets (emu.DevicePages): in
// n's node directory, or, for a node private to this command (NPUEMU_NODE
// unset), in the default node a program would use.
func devicePages(n *emu.Node) string {
	if d := n.Dir(); d != nil {
		return emu.DevicePages(d.Path())
	}
	dir, why := emu.ProgramNodePages("")
	return "programs' default node " + dir + ": " + why
}
