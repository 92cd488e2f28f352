package conformance

import (
	"debug/elf"
	"os"
	"path/filepath"
	"testing"

	"github.com/npuemu/npuemu/abi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExports reads the dynamic symbol table of the built libraries (as
// the loader sees them, through the vendor names) and checks that every
// ACL function of the specification is a defined, default-visibility
// symbol of libascendcl.so and libacl_rt.so, and every HAL function one of
// libascend_hal.so. It reads the ELF file; it loads nothing.
func TestExports(t *testing.T) {
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	lib := filepath.Join(repo, "emu", "lib")
	if _, err := os.Stat(filepath.Join(lib, "libascendcl.so")); err != nil {
		t.Fatalf("%s/libascendcl.so is missing: run `make lib` in %s first", lib, repo)
	}
	for _, c := range []struct{ file, lib string }{
		{"libascendcl.so", "acl"}, {"libacl_rt.so", "acl"}, {"libascend_hal.so", "hal"},
	} {
		t.Run(c.file, func(t *testing.T) {
			f, err := elf.Open(filepath.Join(lib, c.file))
			require.NoError(t, err)
			defer f.Close()
			syms, err := f.DynamicSymbols()
			require.NoError(t, err)
			defined := map[string]bool{}
			for _, s := range syms {
				if s.Section != elf.SHN_UNDEF && elf.ST_TYPE(s.Info) == elf.STT_FUNC &&
					elf.ST_VISIBILITY(s.Other) == elf.STV_DEFAULT {
					defined[s.Name] = true
				}
			}
			n := 0
			for _, s := range abi.Symbols() {
				if s.Lib != c.lib {
					continue
				}
				n++
				assert.True(t, defined[s.Name], "%s does not export %s", c.file, s.Name)
			}
			require.NotZero(t, n)
		})
	}
}
