package npuemu

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/npuemu/npuemu"

// topLevel is the fixed top-level layout (ARCHITECTURE.md): these
// directories exist, and Go code lives only in them or in abi/.
var topLevel = []string{"emu", "hal", "acl", "tsfw", "svm", "libfake", "cmd", "conformance", "examples", "bench", "timeline", "rt"}

// forbidden lists, per layer, the packages it must never depend on, even
// indirectly (docs/internals.md): the hardware model and the ABI data stay
// below the API semantics, the C boundary and purego.
var forbidden = []struct {
	layers []string // module-relative package paths, subpackages included
	deps   []string // forbidden module-relative paths or full import paths
	why    string
}{
	{
		layers: []string{"emu", "tsfw", "svm", "abi"},
		deps:   []string{"acl", "hal", "libfake", "github.com/ebitengine/purego"},
		why:    "the device model and the ABI data know nothing of the API layers or the C boundary",
	},
	{
		layers: []string{"abi"},
		deps:   []string{"emu", "tsfw", "svm", "cmd"},
		why:    "abi imports nothing of the project",
	},
	{layers: []string{"svm"}, deps: []string{"tsfw", "emu"}, why: "svm sits below tsfw and emu"},
	{layers: []string{"tsfw"}, deps: []string{"emu"}, why: "tsfw sits below emu"},
	{layers: []string{"cmd"}, deps: []string{"libfake"}, why: "the CLI reads the model, never the C boundary"},
	{
		layers: []string{"timeline"},
		deps:   []string{"abi", "emu", "tsfw", "svm", "acl", "hal", "libfake", "cmd"},
		why:    "the timeline is a leaf every layer may feed (docs/timeline.md)",
	},
	{layers: []string{"hal"}, deps: []string{"acl", "rt"}, why: "the driver sits below the runtime and the ACL surface (docs/stack.md)"},
	{layers: []string{"rt/stack"}, deps: []string{"acl", "rt"}, why: "the boundary table is a leaf both layers above the driver use"},
	{
		layers: []string{"rt/core"},
		deps:   []string{"acl", "libfake"}, // and so not rt, which imports acl
		why:    "the runtime's core objects depend on no API family and no API surface: families reach them, they reach families only through their hook table (docs/internals.md)",
	},
	{
		layers: []string{"rt/sanitize"},
		deps:   []string{"acl", "hal", "libfake", "abi", "emu", "tsfw", "svm"},
		why:    "the sanitizer models orderings and memory: no API enums, no error codes, no device model (docs/sanitizer.md)",
	},
}

// goPackage is the part of `go list -json` these tests read.
type goPackage struct {
	Dir        string
	ImportPath string
	Name       string
	GoFiles    []string
	CgoFiles   []string
	Imports    []string
	Deps       []string
	Error      *struct{ Err string }
}

func listPackages(t *testing.T) []goPackage {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list: %s", stderr.String())
	var pkgs []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		err := dec.Decode(&p)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		pkgs = append(pkgs, p)
	}
	require.NotEmpty(t, pkgs)
	return pkgs
}

// within reports whether import path p is pkg or one of its subpackages;
// pkg is module-relative unless it contains a dot (an external module).
func within(p, pkg string) bool {
	if !strings.Contains(strings.SplitN(pkg, "/", 2)[0], ".") {
		pkg = module + "/" + pkg
	}
	return p == pkg || strings.HasPrefix(p, pkg+"/")
}

func TestDependencies(t *testing.T) {
	pkgs := listPackages(t)
	for _, p := range pkgs {
		for _, rule := range forbidden {
			for _, layer := range rule.layers {
				if !within(p.ImportPath, layer) {
					continue
				}
				for _, d := range p.Deps {
					for _, bad := range rule.deps {
						assert.False(t, within(d, bad), "%s depends on %s: %s", p.ImportPath, d, rule.why)
					}
				}
			}
		}
		// Only libfake is the cgo boundary (one C toolchain dependency, one
		// place where handles meet pointers).
		usesC := len(p.CgoFiles) > 0
		for _, imp := range p.Imports {
			usesC = usesC || imp == "C"
		}
		if p.ImportPath != module+"/libfake" {
			assert.False(t, usesC, "%s imports \"C\": only libfake may", p.ImportPath)
		}
	}
}

// TestPackagesLoad: every package loads. A C file next to Go files without
// cgo is the trap here (examples/ holds both): the go tool refuses the whole
// package, so such a file starts with a "//go:build ignore" line.
func TestPackagesLoad(t *testing.T) {
	for _, p := range listPackages(t) {
		if p.Error == nil {
			continue
		}
		hint := ""
		if strings.Contains(p.Error.Err, "C source files not allowed") {
			hint = "; C programs in a Go package directory start with a \"//go:build ignore\" line"
		}
		t.Errorf("%s: %s%s", p.ImportPath, p.Error.Err, hint)
	}
}

func TestWithin(t *testing.T) {
	assert.True(t, within(module+"/acl", "acl"))
	assert.True(t, within(module+"/acl/internal/x", "acl"))
	assert.False(t, within(module+"/aclx", "acl"))
	assert.True(t, within("github.com/ebitengine/purego/internal/fakecgo", "github.com/ebitengine/purego"))
	assert.False(t, within("github.com/ebitengine/puregox", "github.com/ebitengine/purego"))
}

// TestPackageDocs: every package has exactly one package doc comment among
// its non-test files; a library package's starts "Package <name> ".
func TestPackageDocs(t *testing.T) {
	for _, p := range listPackages(t) {
		files := append(append([]string{}, p.GoFiles...), p.CgoFiles...)
		if len(files) == 0 {
			continue // test-only directory, e.g. examples/
		}
		var docs []string
		fset := token.NewFileSet()
		for _, f := range files {
			af, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, parser.PackageClauseOnly|parser.ParseComments)
			require.NoError(t, err)
			if af.Doc == nil {
				continue
			}
			docs = append(docs, f)
			if p.Name != "main" {
				assert.True(t, strings.HasPrefix(af.Doc.Text(), "Package "+p.Name+" "),
					"%s/%s: the package doc starts with \"Package %s \"", p.ImportPath, f, p.Name)
			}
		}
		assert.Len(t, docs, 1, "%s: want exactly one package doc comment, found it in %v", p.ImportPath, docs)
	}
}

// goFiles returns every .go file of the repository (test files and files
// excluded by build tags included), relative to the root, skipping build
// output, hidden directories and testdata.
func goFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") ||
				p == filepath.Join("emu", "lib") || p == "build" {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") {
			files = append(files, p)
		}
		return nil
	})
	require.NoError(t, err)
	return files
}

// TestUnsafeFiles: unsafe is imported only in files named *_unsafe.go (or
// their tests, *_unsafe_test.go), so every use is easy to find and review;
// libfake, the cgo boundary, is exempt.
func TestUnsafeFiles(t *testing.T) {
	files := goFiles(t)
	require.NotEmpty(t, files)
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasPrefix(f, "libfake"+string(filepath.Separator)) {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if !assert.NoError(t, err) {
			continue
		}
		for _, imp := range af.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			require.NoError(t, err)
			if path == "unsafe" {
				assert.True(t, strings.HasSuffix(f, "_unsafe.go") || strings.HasSuffix(f, "_unsafe_test.go"),
					"%s imports unsafe: move that code to a file named *_unsafe.go", f)
			}
		}
	}
}

// TestTopLevelLayout: the fixed top-level directories exist, and Go packages
// live only under them (abi included) or at the root.
func TestTopLevelLayout(t *testing.T) {
	for _, d := range topLevel {
		st, err := os.Stat(d)
		if assert.NoError(t, err, "top-level directory %s/ is missing", d) {
			assert.True(t, st.IsDir(), "%s is not a directory", d)
		}
	}
	allowed := map[string]bool{"abi": true}
	for _, d := range topLevel {
		allowed[d] = true
	}
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	var stray []string
	for _, p := range listPackages(t) {
		rel, err := filepath.Rel(root, p.Dir)
		require.NoError(t, err)
		top := strings.Split(filepath.ToSlash(rel), "/")[0]
		if top != "." && !allowed[top] {
			stray = append(stray, p.ImportPath)
		}
	}
	sort.Strings(stray)
	assert.Empty(t, stray, "Go packages outside the fixed top-level layout")
}

// TestFileNamesSayWhatTheyHold: no "x" twin of another file of the package
// (eventx.go beside event.go) and no two-letter abbreviation as a file
// name's first word (kx_, dx_), rt — the runtime family's own name — aside.
func TestFileNamesSayWhatTheyHold(t *testing.T) {
	files := goFiles(t)
	require.NotEmpty(t, files)
	stems := map[string]bool{}
	stem := func(f string) string {
		s := strings.TrimSuffix(f, ".go")
		s = strings.TrimSuffix(s, "_test")
		return strings.TrimSuffix(s, "_unsafe")
	}
	for _, f := range files {
		stems[stem(f)] = true
	}
	for _, f := range files {
		s := stem(f)
		assert.False(t, strings.HasSuffix(s, "x") && stems[strings.TrimSuffix(s, "x")],
			"%s: an x-suffixed twin of %s.go; name it for what it holds", f, strings.TrimSuffix(s, "x"))
		first := strings.SplitN(filepath.Base(s), "_", 2)
		assert.False(t, len(first) == 2 && len(first[0]) == 2 && first[0] != "rt",
			"%s: %q abbreviates; name the family", f, first[0]+"_")
	}
}

// aclState lists the package-level variables acl may declare: tables of
// the API's own (enum decoding, support rules, version names) and the
// state of what is the API's rather than the runtime's — profiling
// collections, mstx, and two registries keyed by the vendor structs their
// entry points receive. Everything else a program's calls create (handle
// tables, callbacks, per-device state) is the runtime's: package rt/core
// (docs/internals.md, "The map now").
var aclState = map[string]string{
	"reduceOps": "enum", "reduceTypes": "enum", "randomTypes": "enum",
	"cntRecordModes": "enum", "cntWaitModes": "enum", "hacEngines": "enum",
	"cannAttrs": "enum", "knownPackages": "enum",
	"packageByEnum": "enum", "ipcEventMagic": "constant", "uuidSpace": "constant",
	"le": "constant", "castagnoli": "constant", "pipeColumns": "profiling output",
	"areaRules": "support table", "symbolRules": "support table", "support": "support table",
	"leakOut": "aclFinalize's leak report (tests redirect it)",
	"prof":    "profiling", "profTx": "profiling", "subs": "profiling", "tx": "profiling", "mstx": "mstx",
	"streamCfgs": "aclrtStreamConfigHandle contents", "physProps": "aclrtPhysicalMemProp per physical handle",
}

// TestACLKeepsNoRuntimeState: acl is the API's surface; the objects a
// program's calls create live in rt/core. A new package variable in acl —
// or a handle table, which is how runtime objects are registered — fails
// here: put it in rt/core, or add it to aclState with the reason it is
// the API's own.
func TestACLKeepsNoRuntimeState(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, "acl", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	require.NoError(t, err)
	var seen int
	for _, p := range pkgs {
		for name, f := range p.Files {
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				for _, s := range g.Specs {
					for _, id := range s.(*ast.ValueSpec).Names {
						seen++
						_, ok := aclState[id.Name]
						assert.True(t, ok || id.Name == "_", "%s: package variable %s: runtime state belongs in rt/core (or list it in aclState with why it is the API's)", name, id.Name)
					}
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "NewTable" {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "core" {
						t.Errorf("%s: %s: a handle table in acl; runtime objects are registered in rt/core", name, fset.Position(sel.Pos()))
					}
				}
				return true
			})
		}
	}
	assert.Greater(t, seen, 10, "the parse found acl's variables")
}
