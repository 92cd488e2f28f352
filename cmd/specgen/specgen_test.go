package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	specDir  = "../../../shared/spec"
	repoRoot = "../.."
)

// TestGeneratedFilesUpToDate regenerates everything into a temporary
// directory and compares it byte for byte with the committed outputs.
func TestGeneratedFilesUpToDate(t *testing.T) {
	if _, err := os.Stat(specDir); err != nil {
		t.Skipf("spec not available at %s (%v): cannot check the generated files", specDir, err)
	}
	tmp := t.TempDir()
	require.NoError(t, generate(specDir, tmp))
	var generated []string
	require.NoError(t, filepath.WalkDir(tmp, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(tmp, p)
			generated = append(generated, rel)
		}
		return err
	}))
	require.NotEmpty(t, generated)
	for _, rel := range generated {
		want, err := os.ReadFile(filepath.Join(tmp, rel))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(repoRoot, rel))
		if !assert.NoError(t, err, "%s is generated but not in the tree: run make generate", rel) {
			continue
		}
		assert.True(t, bytes.Equal(want, got), "%s differs from the generator's output: run make generate", rel)
	}
	// Generated headers that the spec no longer produces must go.
	have := map[string]bool{}
	for _, g := range generated {
		have[g] = true
	}
	for _, dir := range []string{"emu/include/acl", "emu/include/driver"} {
		_ = filepath.WalkDir(filepath.Join(repoRoot, dir), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(repoRoot, p)
			data, _ := os.ReadFile(p)
			if strings.HasPrefix(string(data), genLineC) {
				assert.True(t, have[rel], "%s is a stale generated file", rel)
			}
			return nil
		})
	}
}

func TestSortDecls(t *testing.T) {
	in := []cdecl{
		{Provides: []string{"A"}, Text: "typedef struct { B b; C *c; } A;"},
		{Provides: []string{"B"}, Text: "typedef struct { C c; } B;"},
		{Provides: []string{"C"}, Text: "typedef int C;"},
		{Provides: []string{"D"}, Text: "typedef int D;"},
	}
	out, err := sortDecls(in)
	require.NoError(t, err)
	var names []string
	for _, d := range out {
		names = append(names, d.Provides[0])
	}
	assert.Equal(t, []string{"C", "B", "A", "D"}, names)

	_, err = sortDecls([]cdecl{
		{Provides: []string{"X"}, Text: "struct X { Y y; };"},
		{Provides: []string{"Y"}, Text: "struct Y { X x; };"},
	})
	assert.ErrorContains(t, err, "cycle")
}

func TestConstantLiteral(t *testing.T) {
	tests := []struct {
		c    constant
		want string
	}{
		{constant{Name: "A", Value: "5", CType: "int"}, "5"},
		{constant{Name: "B", Value: "-2", CType: "int"}, "(-2)"},
		{constant{Name: "C", Value: "-2147483648", CType: "int"}, "(-2147483647 - 1)"},
		{constant{Name: "D", Value: "4294967294", CType: "unsigned int"}, "4294967294U"},
		{constant{Name: "E", Value: "-9223372036854775808", CType: "unsigned long"}, "9223372036854775808UL"},
		{constant{Name: "F", Value: "16", CType: "unsigned long long"}, "16ULL"},
		{constant{Name: "G", Value: "4294967295", CType: "unsigned int (enumerator)"}, "4294967295U"},
		{constant{Name: "H", Value: "-1", CType: "int (enumerator)"}, "(-1)"},
	}
	for _, tt := range tests {
		got, err := tt.c.literal()
		require.NoError(t, err, tt.c.Name)
		assert.Equal(t, tt.want, got, tt.c.Name)
	}
	_, err := constant{Name: "X", Value: "1", CType: "float"}.literal()
	assert.Error(t, err)
	_, err = constant{Name: "Y", Value: "one", CType: "int"}.literal()
	assert.Error(t, err)
}

func TestSplitPrototype(t *testing.T) {
	f, err := splitPrototype("halMemFree", "drvError_t halMemFree(void *pp);")
	require.NoError(t, err)
	assert.Equal(t, "drvError_t", f.Return)
	assert.Equal(t, "void *pp", f.Params)
	f, err = splitPrototype("f", "const char *f();")
	require.NoError(t, err)
	assert.Equal(t, "const char *", f.Return)
	assert.Equal(t, "(empty)", f.Params)
	_, err = splitPrototype("g", "int h(void);")
	assert.Error(t, err)
}
