package main

import (
	"fmt"
	"io"

	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/svm"
)

// svmColumns are the headings of the managed-memory counters table.
var svmColumns = []string{"Location", "Faults", "Thrash", "Evictions", "HtoD(MiB)", "DtoH(MiB)", "Prefetched(MiB)", "Resident(MiB)"}

// printSVM writes the managed-memory settings and, when the node has managed
// memory, the counters of the host and of every device (docs/svm.md). A
// program reads its own counters with npuemuSvmGetStats (npuemu/svm.h):
// `npuemu info` runs in a process of its own.
func printSVM(w io.Writer, n *emu.Node) {
	const mib = 1 << 20
	mode, err := emu.SVMMode()
	if err != nil {
		mode = err.Error()
	}
	fmt.Fprintf(w, "Managed memory: host faults %s (%s); 2 MiB pages in [%#x, +%d GiB); counters: npuemuSvmGetStats (npuemu/svm.h)\n",
		mode, emu.EnvSVMHostFaults, svm.ManagedBase, svm.ManagedSize>>30)
	g := n.LoadedSVM()
	if g == nil {
		fmt.Fprintln(w, "                no managed memory allocated in this process")
		return
	}
	rows := [][]string{svmColumns}
	add := func(name string, l svm.Location) {
		st, err := g.Stats(l)
		if err != nil {
			return
		}
		rows = append(rows, []string{name, fmt.Sprint(st.Faults), fmt.Sprint(st.Thrash), fmt.Sprint(st.Evictions),
			fmt.Sprint(st.BytesHtoD / mib), fmt.Sprint(st.BytesDtoH / mib), fmt.Sprint(st.PrefetchedBytes / mib), fmt.Sprint(st.ResidentBytes / mib)})
	}
	add("host", svm.Host)
	for id := 0; id < n.DeviceCount(); id++ {
		add(fmt.Sprintf("NPU %d", id), svm.Location(id))
	}
	writeTable(w, rows)
}
