package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// caseFamilies are the API families a case name may start with besides the
// areas of the ACL function table (acl-functions.tsv, "-" written "_"):
// the other libraries and the emulator's own layers.
var caseFamilies = []string{"hal", "dcmi", "prof", "ascendc", "stack", "node", "sanitize"}

// TestCaseNamesStartWithTheirFamily: a case's name is its API family, "_",
// and what it checks (docs/conformance.md), so the cases of one family sort
// together. zunsupported is generated from the support tables.
func TestCaseNamesStartWithTheirFamily(t *testing.T) {
	data, err := os.ReadFile("../../shared/spec/acl-functions.tsv")
	if os.IsNotExist(err) {
		t.Skip("spec not beside the repository")
	}
	require.NoError(t, err)
	families := append([]string(nil), caseFamilies...)
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		cols := strings.Split(line, "\t")
		if i == 0 || len(cols) < 2 || cols[1] == "" {
			continue
		}
		families = append(families, strings.ReplaceAll(cols[1], "-", "_"))
	}
	cases, err := filepath.Glob("cases/*.c")
	require.NoError(t, err)
	cxx, err := filepath.Glob("cases/*.cc")
	require.NoError(t, err)
	cases = append(cases, cxx...)
	require.NotEmpty(t, cases)
	for _, c := range cases {
		name := strings.TrimSuffix(filepath.Base(c), filepath.Ext(c))
		if name == "zunsupported" {
			continue
		}
		ok := false
		for _, f := range families {
			if strings.HasPrefix(name, f+"_") {
				ok = true
				break
			}
		}
		assert.True(t, ok, "case %s: its name does not start with an API family", name)
	}
}
