package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Report holds the figures of one harness run and why a column is missing.
type Report struct {
	Runs    int
	Quick   bool
	Npu     Series
	Peer    Series
	Limits  Series
	NpuErr  error // npuemu_bench could not be built or run
	PeerErr error // the PoCL peer could not be built or run
	// Pages says where npuemu's device memory lived and whether it got
	// huge pages (emu.ProgramNodePages): the vector add depends on it.
	Pages string
}

// rows returns the catalogue followed by every metric that a program
// printed and the catalogue does not know.
func (r *Report) rows() []Row {
	rows := append([]Row(nil), catalogue...)
	npuSeen, peerSeen := map[string]bool{}, map[string]bool{}
	for _, row := range catalogue {
		npuSeen[row.Metric] = true
		peerSeen[row.Peer] = true
	}
	for _, n := range r.Npu.Names() {
		if npuSeen[n] {
			continue
		}
		row := Row{Metric: n}
		if _, ok := r.Peer[n]; ok && !peerSeen[n] {
			row.Peer = n
			peerSeen[n] = true
		}
		rows = append(rows, row)
	}
	for _, n := range r.Peer.Names() {
		if !peerSeen[n] {
			rows = append(rows, Row{Metric: n, Peer: n})
		}
	}
	return rows
}

// Write prints the comparison table, the notes and the machine limits.
func (r *Report) Write(w io.Writer) {
	mode := ""
	if r.Quick {
		mode = ", quick mode: tiny sizes, figures are not meaningful"
	}
	fmt.Fprintf(w, "npuemu vs PoCL — medians of %d run(s)%s; ratio = times faster than PoCL (> 1: npuemu faster)\n\n", r.Runs, mode)

	header := []string{"metric", "npuemu median", "PoCL median", "ratio", "target", "met?"}
	var table [][]string
	var notes []string
	pendingNoted := map[string]bool{}
	for _, row := range r.rows() {
		npu, npuUnit, npuOK := r.Npu.Median(row.Metric)
		var peer float64
		var peerUnit string
		var peerOK bool
		if row.Peer != "" {
			peer, peerUnit, peerOK = r.Peer.Median(row.Peer)
		}
		unit := row.Unit
		switch {
		case npuOK:
			unit = npuUnit
		case peerOK:
			unit = peerUnit
		}
		if npuOK && peerOK && npuUnit != peerUnit {
			notes = append(notes, fmt.Sprintf("%s: units differ (npuemu %s, PoCL %s); no ratio", row.Metric, npuUnit, peerUnit))
			peerOK = false
		}
		cells := []string{row.Metric, "—", "—", "—", row.Target.Describe(unit), row.Target.Verdict(npu, npuOK, peer, peerOK, unit)}
		if npuOK {
			cells[1] = FormatValue(npu, npuUnit)
		} else if row.Pending != "" && r.NpuErr == nil {
			cells[1] = "— ¹"
			if !pendingNoted[row.Pending] {
				pendingNoted[row.Pending] = true
				notes = append(notes, "¹ "+row.Pending+".")
			}
		}
		if peerOK {
			cells[2] = FormatValue(peer, peerUnit)
		}
		if npuOK && peerOK && npu > 0 && peer > 0 {
			cells[3] = fmt.Sprintf("%.2f×", Speedup(npu, peer, unit))
		}
		table = append(table, cells)
	}
	writeTable(w, header, table)

	for _, src := range targetSources() {
		notes = append(notes, "targets from "+src+".")
	}
	notes = append(notes, "sync_empty_stream_us: the PoCL column is the peer's empty_sync_us (clFinish on an empty queue).")
	notes = append(notes, "h2d/d2h_64MiB and h2d_4KiB copy pageable (malloc) host memory, as the peer does; *_pinned_GBps use aclrtMallocHost memory.")
	if r.NpuErr != nil {
		notes = append(notes, "npuemu column missing: "+r.NpuErr.Error())
	}
	if r.PeerErr != nil {
		notes = append(notes, "PoCL column missing: "+r.PeerErr.Error())
	}
	fmt.Fprintln(w)
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}

	if names := r.Limits.Names(); len(names) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Machine limits (limits.c):")
		fmt.Fprintln(w)
		var lim [][]string
		for _, n := range names {
			v, unit, _ := r.Limits.Median(n)
			lim = append(lim, []string{n, FormatValue(v, unit)})
		}
		writeTable(w, []string{"machine limit", "median"}, lim)
	}
	if r.Pages != "" {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Device memory pages (docs/node.md, \"Huge pages\"): "+r.Pages)
	}
}

// writeTable prints a Markdown table padded to line up in a terminal.
func writeTable(w io.Writer, header []string, rows [][]string) {
	width := make([]int, len(header))
	for i, h := range header {
		width[i] = utf8.RuneCountInString(h)
	}
	for _, row := range rows {
		for i, c := range row {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		b.WriteString("|")
		for i, c := range cells {
			b.WriteString(" ")
			b.WriteString(c)
			b.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)))
			b.WriteString(" |")
		}
		fmt.Fprintln(w, b.String())
	}
	line(header)
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = strings.Repeat("-", width[i])
	}
	line(sep)
	for _, row := range rows {
		line(row)
	}
}
