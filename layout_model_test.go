package npuemu

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// modelLayers are the device model (docs/internals.md, "Errors of the device
// model"): they know no API enum and no ACL code.
var modelLayers = []string{"emu", "tsfw", "svm"}

// apiNames are the names of package abi the device model must not use
// outside its tests: the ACL enums and codes (every ACL_* name), the
// driver's error codes (DRV_ERROR_*), the driver's memory enums the VMM
// once read (every MEM_* and SHMEM_* name: page, memory and access types,
// shared-memory attributes, map routes; emu/vmm_kinds.go has the model's
// own), and the ACL surface's and the driver's error types with their
// constructors and conversions. The model builds abi.DevError values
// (abi.DevErrorf; abi.DevInDriverf for what it meets inside a driver
// call); the API layers convert them.
var apiNames = map[string]bool{
	"Error": true, "Errorf": true, "Err": true, "Wrapf": true,
	"Code": true, "CodeOf": true, "RTCodeOf": true, "DrvErr": true,
	"DrvError": true, "DrvErrorf": true, "DrvCodeOf": true,
}

// apiPrefixes begin the API enum names of package abi the model must not
// use (see apiNames).
var apiPrefixes = []string{"ACL_", "DRV_ERROR_", "MEM_", "SHMEM_"}

func apiPrefix(name string) bool {
	for _, p := range apiPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// apiUses returns "name (file:line)" for every use of an ACL name of package
// abi in src, a Go source file.
func apiUses(t *testing.T, fset *token.FileSet, file string, src any) []string {
	t.Helper()
	af, err := parser.ParseFile(fset, file, src, 0)
	require.NoError(t, err)
	local := ""
	for _, imp := range af.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		require.NoError(t, err)
		if path != module+"/abi" {
			continue
		}
		local = "abi"
		if imp.Name != nil {
			local = imp.Name.Name
		}
	}
	if local == "" {
		return nil
	}
	var uses []string
	ast.Inspect(af, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == local {
			if name := sel.Sel.Name; apiPrefix(name) || apiNames[name] {
				uses = append(uses, name+" ("+fset.Position(sel.Pos()).String()+")")
			}
		}
		return true
	})
	return uses
}

// TestModelSpeaksNoAPI: emu, tsfw and svm name no ACL enum, no driver
// memory enum, no ACL or driver error code and build no ACL error; their errors are abi.DevError,
// converted at the API boundaries (abi/deverr.go).
func TestModelSpeaksNoAPI(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	for _, f := range goFiles(t) {
		top := strings.SplitN(filepath.ToSlash(f), "/", 2)[0]
		model := false
		for _, l := range modelLayers {
			model = model || top == l
		}
		if !model || strings.HasSuffix(f, "_test.go") {
			continue
		}
		checked++
		for _, u := range apiUses(t, fset, f, nil) {
			t.Errorf("the device model uses abi.%s: build an abi.DevError of a DevKind, and decode API enums in acl/ or hal/", u)
		}
	}
	assert.Greater(t, checked, 50, "the model's files were found")

	// The check itself finds what it is there to find, under any import name.
	src := `package x
import a "github.com/npuemu/npuemu/abi"
func f(m uint32) error {
	if m == a.ACL_MEM_ADVISE_SET_READ_MOSTLY { return a.Errorf(a.ACL_ERROR_RT_PARAM_INVALID, "x") }
	if m == 7 { return a.DrvErrorf(a.DRV_ERROR_BUSY, "z") }
	if m == a.MEM_GIANT_PAGE_TYPE || m == a.SHMEM_ATTR_TYPE_MEM_MAP { return nil }
	return a.DevErrorf(a.DevInvalidValue, "y")
}`
	uses := apiUses(t, fset, "x.go", src)
	require.Len(t, uses, 7, "%v", uses)
	assert.True(t, strings.HasPrefix(uses[0], "ACL_MEM_ADVISE_SET_READ_MOSTLY"))
	assert.True(t, strings.HasPrefix(uses[1], "Errorf"))
	assert.True(t, strings.HasPrefix(uses[2], "ACL_ERROR_RT_PARAM_INVALID"))
	assert.True(t, strings.HasPrefix(uses[3], "DrvErrorf"))
	assert.True(t, strings.HasPrefix(uses[4], "DRV_ERROR_BUSY"))
	assert.True(t, strings.HasPrefix(uses[5], "MEM_GIANT_PAGE_TYPE"))
	assert.True(t, strings.HasPrefix(uses[6], "SHMEM_ATTR_TYPE_MEM_MAP"))
}
