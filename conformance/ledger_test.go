package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var theLedger = sync.OnceValues(func() (*Ledger, error) { return ReadLedger(LedgerFile) })

// checkLedger holds the outcome r of case c against ledger.tsv: a failure
// the ledger expects on this target is reported as a skip with the ledger's
// reason; an outcome other than the ledger's fails the case.
func checkLedger(t *testing.T, tg *Target, c Case, r Result) {
	t.Helper()
	l, err := theLedger()
	require.NoError(t, err)
	known, err := l.Check(c.Name, tg.Kind, tg.Version, r)
	if err != nil {
		t.Fatalf("%v\n--- stdout\n%s--- stderr\n%s", err, r.Stdout, r.Stderr)
	}
	if known != "" {
		t.Logf("--- stdout\n%s--- stderr\n%s", r.Stdout, r.Stderr)
		t.Skip(known)
	}
}

const ledgerHeader = "case\ttarget\tcann\tstatus\treason\n"

func TestParseLedger(t *testing.T) {
	tests := []struct {
		name, src string
		rows      int
		err       string
	}{
		{name: "empty file", src: ""},
		{name: "only comments and header", src: "# divergences\n\n" + ledgerHeader, rows: 0},
		{name: "rows", src: ledgerHeader + "a\treal\t8.0\tfail\twhy\nb\temulator\t*\tskip\twhy not\n", rows: 2},
		{name: "no header", src: "a\treal\t8.0\tfail\twhy\n", err: "1: want the header"},
		{name: "bad target", src: ledgerHeader + "a\tgpu\t*\tfail\twhy\n", err: `2: target "gpu"`},
		{name: "bad status", src: ledgerHeader + "a\treal\t*\tbroken\twhy\n", err: `2: status "broken"`},
		{name: "columns", src: ledgerHeader + "a\treal\t*\tfail\n", err: "2: want 5 tab-separated columns"},
		{name: "no reason", src: ledgerHeader + "a\treal\t*\tfail\t \n", err: "needs a case and a reason"},
		{name: "emulator with a version", src: ledgerHeader + "a\temulator\t8.0\tfail\twhy\n", err: "no CANN version"},
		{name: "duplicate", src: ledgerHeader + "a\treal\t*\tfail\tx\na\treal\t*\tskip\ty\n", err: "3: same case, target and cann as line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := ParseLedger(strings.NewReader(tt.src))
			if tt.err != "" {
				assert.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Len(t, l.Rows, tt.rows)
		})
	}
}

func TestLedgerCheck(t *testing.T) {
	l, err := ParseLedger(strings.NewReader(ledgerHeader +
		"old\treal\t7\tfail\tfixed in 8\n" +
		"cb\tpassthrough\t8.0\tfail\tcallback order differs\n" +
		"cb\treal\t*\tskip\tno second device\n" +
		"emu\temulator\t*\tfail\tnot modelled yet\n"))
	require.NoError(t, err)
	fail, pass, skip := Result{Outcome: Fail, Reason: "exit status 1"}, Result{Outcome: Pass}, Result{Outcome: Skip, Reason: "x"}
	tests := []struct {
		name, c, kind, version string
		r                      Result
		known, err             string
	}{
		{name: "no row: the runner decides", c: "other", kind: KindPassthrough, version: "8.0.RC1", r: fail},
		{name: "expected failure is known", c: "cb", kind: KindPassthrough, version: "8.0.RC1", r: fail,
			known: "known divergence (ledger.tsv:3): callback order differs"},
		{name: "expected failure passes", c: "cb", kind: KindPassthrough, version: "8.0.RC1", r: pass,
			err: "ledger.tsv:3 expects cb to fail on passthrough (CANN 8.0.RC1: callback order differs), but it did pass"},
		{name: "version prefix is per component", c: "cb", kind: KindPassthrough, version: "8.01", r: skip},
		{name: "real matches vendor", c: "cb", kind: KindVendor, version: "9.1", r: fail,
			err: "expects cb to skip on vendor"},
		{name: "real does not match the emulator", c: "cb", kind: KindEmulator, r: fail},
		{name: "unknown version matches only *", c: "old", kind: KindVendor, version: "", r: pass},
		{name: "exact version", c: "old", kind: KindVendor, version: "7", r: fail, known: "fixed in 8"},
		{name: "emulator row must hold", c: "emu", kind: KindEmulator, r: pass, err: "expects emu to fail on emulator"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			known, err := l.Check(tt.c, tt.kind, tt.version, tt.r)
			if tt.err != "" {
				assert.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			if tt.known == "" {
				assert.Empty(t, known)
			} else {
				assert.Contains(t, known, tt.known)
			}
		})
	}
}

// TestLedgerFile checks ledger.tsv itself: it parses and names only cases
// that exist. Whether its emulator rows hold is checked by TestConformance,
// which runs them.
func TestLedgerFile(t *testing.T) {
	l, err := ReadLedger(LedgerFile)
	require.NoError(t, err)
	cases, err := Discover("cases")
	require.NoError(t, err)
	names := map[string]bool{}
	for _, c := range cases {
		names[c.Name] = true
	}
	for _, row := range l.Rows {
		assert.True(t, names[row.Case], "%s:%d names %s, which is no case in cases/", LedgerFile, row.Line, row.Case)
	}
	_, err = os.Stat(filepath.Join("..", "docs", "passthrough.md"))
	assert.NoError(t, err, fmt.Sprintf("%s is described in docs/passthrough.md", LedgerFile))
}
