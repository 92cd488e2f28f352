package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// listed is the part of `go list -json` the tool reads.
type listed struct {
	ImportPath     string
	Name           string
	Dir            string
	Export         string
	GoFiles        []string
	CgoFiles       []string
	TestGoFiles    []string
	XTestGoFiles   []string
	IgnoredGoFiles []string
	Module         *struct{ Path string }
}

func goList(root string, args ...string) ([]listed, error) {
	cmd := exec.Command("go", append([]string{"list", "-e", "-json"}, args...)...)
	cmd.Dir = root
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	var ps []listed
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// modulePath reads the module line of root/go.mod.
func modulePath(root string) (string, error) {
	f, err := os.Open(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("run in the module root: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	return "", fmt.Errorf("%s/go.mod: no module line", root)
}

// srcPackage is the source package, type-checked from source together
// with its in-package test files.
type srcPackage struct {
	listed
	files []*ast.File // GoFiles then TestGoFiles
	names []string    // base names, same order
	pkg   *types.Package
	info  *types.Info
}

// loadSource type-checks the package in dir (GoFiles + TestGoFiles) with
// the export data of its dependencies (test dependencies included).
func loadSource(root string, fset *token.FileSet, dir string) (*srcPackage, error) {
	ps, err := goList(root, "-export", "-deps", "-test", dir)
	if err != nil {
		return nil, err
	}
	exports := map[string]string{}
	var sp *srcPackage
	abs, _ := filepath.Abs(filepath.Join(root, dir))
	for _, p := range ps {
		if !strings.Contains(p.ImportPath, " ") && p.Export != "" {
			exports[p.ImportPath] = p.Export
		}
		if p.Dir == abs && !strings.Contains(p.ImportPath, " ") && !strings.HasSuffix(p.ImportPath, ".test") {
			sp = &srcPackage{listed: p}
		}
	}
	if sp == nil {
		return nil, fmt.Errorf("%s: no Go package there", dir)
	}
	if len(sp.CgoFiles) > 0 {
		return nil, fmt.Errorf("%s: cgo files (%s) are not supported", dir, strings.Join(sp.CgoFiles, " "))
	}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		e, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(e)
	})
	for _, n := range append(append([]string{}, sp.GoFiles...), sp.TestGoFiles...) {
		f, err := parser.ParseFile(fset, filepath.Join(sp.Dir, n), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		sp.files = append(sp.files, f)
		sp.names = append(sp.names, n)
	}
	sp.info = &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Implicits:  map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Scopes:     map[ast.Node]*types.Scope{},
	}
	conf := types.Config{Importer: imp}
	sp.pkg, err = conf.Check(sp.ImportPath, fset, sp.files, sp.info)
	if err != nil {
		return nil, fmt.Errorf("type-checking %s: %w", sp.ImportPath, err)
	}
	return sp, nil
}
