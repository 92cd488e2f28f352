package conformance

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// LedgerFile is the divergence ledger, relative to the package directory.
const LedgerFile = "ledger.tsv"

// ledgerColumns is the header line of the ledger.
var ledgerColumns = []string{"case", "target", "cann", "status", "reason"}

// LedgerRow is one known divergence: on Target (a Kind, "real" for both
// passthrough and vendor, or "*"), with CANN version CANN ("*", or a version
// prefix such as "8.0" matching "8.0.RC3"), case Case ends with Status for
// Reason.
type LedgerRow struct {
	Case, Target, CANN string
	Status             Outcome
	Reason             string
	Line               int
}

// Ledger is the parsed ledger.tsv.
type Ledger struct {
	Rows []LedgerRow
}

// ReadLedger parses the ledger at path; a missing file is an empty ledger.
func ReadLedger(path string) (*Ledger, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return &Ledger{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l, err := ParseLedger(f)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	return l, nil
}

// ParseLedger reads tab-separated rows under the header line
// "case target cann status reason"; blank lines and lines starting with '#'
// are comments. Errors start with the line number.
func ParseLedger(r io.Reader) (*Ledger, error) {
	l := &Ledger{}
	sc := bufio.NewScanner(r)
	header := false
	seen := map[[3]string]int{}
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if !header {
			if strings.Join(f, " ") != strings.Join(ledgerColumns, " ") {
				return nil, fmt.Errorf("%d: want the header %q", n, strings.Join(ledgerColumns, "\t"))
			}
			header = true
			continue
		}
		if len(f) != len(ledgerColumns) {
			return nil, fmt.Errorf("%d: want %d tab-separated columns, got %d", n, len(ledgerColumns), len(f))
		}
		row := LedgerRow{Case: f[0], Target: f[1], CANN: f[2], Reason: strings.TrimSpace(f[4]), Line: n}
		switch row.Target {
		case KindEmulator, KindPassthrough, KindVendor, "real", "*":
		default:
			return nil, fmt.Errorf("%d: target %q: want emulator, passthrough, vendor, real or *", n, row.Target)
		}
		if row.CANN == "" {
			return nil, fmt.Errorf("%d: empty cann column (use * for any version)", n)
		}
		if row.Target == KindEmulator && row.CANN != "*" {
			return nil, fmt.Errorf("%d: the emulator has no CANN version: use * in the cann column", n)
		}
		switch f[3] {
		case "pass":
			row.Status = Pass
		case "skip":
			row.Status = Skip
		case "fail":
			row.Status = Fail
		default:
			return nil, fmt.Errorf("%d: status %q: want pass, skip or fail", n, f[3])
		}
		if row.Case == "" || row.Reason == "" {
			return nil, fmt.Errorf("%d: a row needs a case and a reason", n)
		}
		key := [3]string{row.Case, row.Target, row.CANN}
		if prev, dup := seen[key]; dup {
			return nil, fmt.Errorf("%d: same case, target and cann as line %d", n, prev)
		}
		seen[key] = n
		l.Rows = append(l.Rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return l, nil
}

// matches reports whether row applies to a target of kind with version.
func (row LedgerRow) matches(kind, version string) bool {
	switch row.Target {
	case "*":
	case "real":
		if kind != KindPassthrough && kind != KindVendor {
			return false
		}
	default:
		if row.Target != kind {
			return false
		}
	}
	return row.CANN == "*" || version == row.CANN || strings.HasPrefix(version, row.CANN+".")
}

// Lookup returns the first row for the case on a target of kind with
// version.
func (l *Ledger) Lookup(caseName, kind, version string) (LedgerRow, bool) {
	for _, row := range l.Rows {
		if row.Case == caseName && row.matches(kind, version) {
			return row, true
		}
	}
	return LedgerRow{}, false
}

// Check compares the outcome of case c on a target with the ledger. A case
// without a row is the runner's business (it must pass or skip for a
// reason). With a row: a failure the ledger expects is a known divergence
// (known is the text to report it with); any other outcome than the row's is
// a mismatch, reported as an error naming the row, so the ledger never
// drifts from what runs.
func (l *Ledger) Check(c string, kind, version string, r Result) (known string, err error) {
	row, ok := l.Lookup(c, kind, version)
	if !ok {
		return "", nil
	}
	where := fmt.Sprintf("%s:%d", LedgerFile, row.Line)
	if r.Outcome != row.Status {
		return "", fmt.Errorf("%s expects %s to %s on %s (CANN %s: %s), but it did %s (%s): update or remove the row",
			where, c, row.Status, kind, versionText(version), row.Reason, r.Outcome, r.Reason)
	}
	if r.Outcome == Fail {
		return fmt.Sprintf("known divergence (%s): %s; the case fails with %s", where, row.Reason, r.Reason), nil
	}
	return "", nil
}

func versionText(v string) string {
	if v == "" {
		return "unknown"
	}
	return v
}
