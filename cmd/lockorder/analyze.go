package main

import (
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
	"sort"
	"strings"
)

// Packages are the packages whose mutexes the lock order covers: the
// runtime, the driver and the device model. Calls between them are
// followed (a lock taken in tsfw under one held in acl is an edge).
var Packages = []string{"./acl", "./rt", "./rt/core", "./rt/stack", "./rt/sanitize", "./hal", "./emu", "./tsfw", "./svm", "./timeline"}

// Edge says that lock B is taken while lock A is held, somewhere.
type Edge struct {
	A, B  string
	Where string // function, position, and "direct" or the call that takes B
}

// Result is what Analyze finds.
type Result struct {
	Locks []string // every mutex field or variable declared in Packages
	Edges []Edge
}

type listed struct {
	ImportPath string
	Name       string
	Export     string
	Dir        string
	GoFiles    []string
}

// goList runs `go list -export -deps -json` in repo: export data for the
// dependencies, source files for the packages analysed.
func goList(repo string, pkgs []string) (map[string]listed, error) {
	cmd := exec.Command("go", append([]string{"list", "-export", "-deps", "-json"}, pkgs...)...)
	cmd.Dir = repo
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	m := map[string]listed{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		m[p.ImportPath] = p
	}
	return m, nil
}

type event struct {
	pos    token.Pos
	lock   string // taken here
	unlock string // released here
	deferU bool   // the release is deferred to the function's end
	callee string // FullName of a function of the analysed packages called here
	blk    ast.Node
}

type function struct {
	name   string
	events []event
	end    token.Pos
}

func isMutex(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok {
		return false
	}
	o := n.Obj()
	return o.Pkg() != nil && o.Pkg().Path() == "sync" && (o.Name() == "Mutex" || o.Name() == "RWMutex")
}

func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// Analyze type-checks Packages in repo from source and returns their
// mutexes and the order in which they nest.
func Analyze(repo string) (*Result, error) {
	repo, err := filepath.Abs(repo)
	if err != nil {
		return nil, err
	}
	all, err := goList(repo, Packages)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		p, ok := all[path]
		if !ok || p.Export == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(p.Export)
	})
	funcs := map[string]*function{}
	binds := map[string][]string{}
	var lits []*function
	locks := map[string]bool{}
	for _, rel := range Packages {
		var p listed
		for _, q := range all {
			if q.Dir == filepath.Join(repo, filepath.FromSlash(strings.TrimPrefix(rel, "./"))) {
				p = q
			}
		}
		if p.ImportPath == "" {
			return nil, fmt.Errorf("package %s not listed", rel)
		}
		var files []*ast.File
		for _, f := range p.GoFiles {
			af, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, 0)
			if err != nil {
				return nil, err
			}
			files = append(files, af)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{}, Types: map[ast.Expr]types.TypeAndValue{}}
		conf := types.Config{Importer: imp}
		if _, err := conf.Check(p.ImportPath, fset, files, info); err != nil {
			return nil, fmt.Errorf("type-checking %s: %w", p.ImportPath, err)
		}
		a := &pkgAnalysis{pkg: p.Name, path: p.ImportPath, info: info, fset: fset, locks: locks, funcs: funcs,
			binds: binds, pendingLit: map[*ast.FuncLit]string{}}
		for _, af := range files {
			a.declared(af)
			for _, d := range af.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				o := info.Defs[fd.Name].(*types.Func)
				f := &function{name: p.Name + "." + strings.TrimPrefix(o.FullName(), p.ImportPath+"."), end: fd.End()}
				funcs[o.FullName()] = f
				lits = append(lits, a.collect(fd.Body, f)...)
			}
		}
	}
	// targets are the analysed functions a call event may run: the callee,
	// or every function a struct literal assigns to the called field.
	targets := func(callee string) []*function {
		if key, ok := strings.CutPrefix(callee, "field:"); ok {
			var out []*function
			for _, name := range binds[key] {
				if g := funcs[name]; g != nil {
					out = append(out, g)
				}
			}
			return out
		}
		if g := funcs[callee]; g != nil {
			return []*function{g}
		}
		return nil
	}
	// What each function takes, itself or through what it calls.
	fs := make([]*function, 0, len(funcs)+len(lits))
	for _, f := range funcs {
		fs = append(fs, f)
	}
	fs = append(fs, lits...)
	takes := map[*function]map[string]bool{}
	for _, f := range fs {
		takes[f] = map[string]bool{}
		for _, e := range f.events {
			if e.lock != "" {
				takes[f][e.lock] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, f := range fs {
			for _, e := range f.events {
				for _, g := range targets(e.callee) {
					for l := range takes[g] {
						if !takes[f][l] {
							takes[f][l] = true
							changed = true
						}
					}
				}
			}
		}
	}
	type key struct{ a, b string }
	where := map[key]string{}
	for _, f := range fs {
		for i, e := range f.events {
			if e.lock == "" {
				continue
			}
			end := f.end
			for _, e2 := range f.events[i+1:] {
				if e2.unlock == e.lock && e2.blk == e.blk {
					if !e2.deferU {
						end = e2.pos
					}
					break
				}
			}
			for _, e2 := range f.events[i+1:] {
				if e2.pos >= end {
					break
				}
				var under []string
				how := "direct"
				if e2.lock != "" {
					under = append(under, e2.lock)
				}
				for _, g := range targets(e2.callee) {
					how = "via " + g.name
					for l := range takes[g] {
						under = append(under, l)
					}
				}
				for _, l := range under {
					if l == e.lock {
						continue
					}
					k := key{e.lock, l}
					if _, ok := where[k]; !ok {
						pos := fset.Position(e2.pos)
						rel, _ := filepath.Rel(repo, pos.Filename)
						where[k] = fmt.Sprintf("%s (%s:%d, %s)", f.name, rel, pos.Line, how)
					}
				}
			}
		}
	}
	r := &Result{}
	for l := range locks {
		r.Locks = append(r.Locks, l)
	}
	sort.Strings(r.Locks)
	for k, w := range where {
		r.Edges = append(r.Edges, Edge{k.a, k.b, w})
	}
	sort.Slice(r.Edges, func(i, j int) bool {
		if r.Edges[i].A != r.Edges[j].A {
			return r.Edges[i].A < r.Edges[j].A
		}
		return r.Edges[i].B < r.Edges[j].B
	})
	return r, nil
}

type pkgAnalysis struct {
	pkg, path string
	info      *types.Info
	fset      *token.FileSet
	locks     map[string]bool
	funcs     map[string]*function
	// binds maps a struct field of function type ("pkgpath.Type.Field")
	// to the functions struct literals assign to it (FullNames, or
	// "lit:" names of function literals), so that a call through the
	// field is followed: the runtime core's hook table (rt/core/hooks.go)
	// is such a field set, filled by acl.
	binds      map[string][]string
	pendingLit map[*ast.FuncLit]string // a literal assigned to a field, before it is collected
}

// fieldKey names the field a selector selects, by the type declaring it.
func fieldKey(sel *types.Selection, name string) string {
	return types.TypeString(deref(declaringType(sel)), nil) + "." + name
}

// declared records the mutexes the file declares: struct fields (named
// Type.field, or Type for an embedded mutex) and package variables.
func (a *pkgAnalysis) declared(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeSpec:
			if st, ok := n.Type.(*ast.StructType); ok {
				a.fields(n.Name.Name, st)
			}
			return false
		case *ast.ValueSpec:
			for _, id := range n.Names {
				o := a.info.Defs[id]
				if o == nil {
					continue
				}
				if isMutex(o.Type()) {
					a.locks[a.pkg+"."+id.Name] = true
				} else if _, named := o.Type().(*types.Named); !named {
					if st, ok := o.Type().Underlying().(*types.Struct); ok {
						a.varFields(id.Name, st)
					}
				}
			}
			return false
		}
		return true
	})
}

func (a *pkgAnalysis) fields(owner string, st *ast.StructType) {
	for _, fl := range st.Fields.List {
		tv, ok := a.info.Types[fl.Type]
		if !ok || !isMutex(tv.Type) {
			continue
		}
		if len(fl.Names) == 0 {
			a.locks[a.pkg+"."+owner] = true
		}
		for _, id := range fl.Names {
			a.locks[a.pkg+"."+owner+"."+id.Name] = true
		}
	}
}

// varFields records the mutexes of a variable of an anonymous struct type.
func (a *pkgAnalysis) varFields(owner string, st *types.Struct) {
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !isMutex(f.Type()) {
			continue
		}
		if f.Embedded() {
			a.locks[a.pkg+"."+owner] = true
		} else {
			a.locks[a.pkg+"."+owner+"."+f.Name()] = true
		}
	}
}

// lockID names the mutex that x (the receiver of Lock/Unlock) is.
func (a *pkgAnalysis) lockID(x ast.Expr) string {
	switch e := x.(type) {
	case *ast.SelectorExpr:
		if o, ok := a.info.Uses[e.Sel].(*types.Var); ok && !o.IsField() && o.Pkg() != nil {
			// A package variable of another analysed package (core.NodeMu).
			if tn := typeName(o.Type()); tn != "" && !isMutex(o.Type()) {
				return o.Pkg().Name() + "." + tn
			}
			return o.Pkg().Name() + "." + o.Name()
		}
		if sel, ok := a.info.Selections[e]; ok && sel.Kind() == types.FieldVal {
			recv := declaringType(sel)
			owner := typeName(recv)
			pkg := a.pkg
			if owner == "" { // a variable of an anonymous struct type
				switch v := e.X.(type) {
				case *ast.Ident:
					owner = v.Name
				case *ast.SelectorExpr: // one of another package (core.CapState.Mu)
					if o, ok := a.info.Uses[v.Sel].(*types.Var); ok && !o.IsField() && o.Pkg() != nil {
						owner, pkg = o.Name(), o.Pkg().Name()
					}
				}
			}
			if n, ok := deref(recv).(*types.Named); ok && n.Obj().Pkg() != nil {
				pkg = n.Obj().Pkg().Name()
			}
			if isMutex(sel.Type()) {
				return pkg + "." + owner + "." + e.Sel.Name
			}
			return pkg + "." + typeName(sel.Type()) // a value embedding a mutex
		}
	case *ast.Ident:
		if o := a.info.Uses[e]; o != nil {
			if isMutex(o.Type()) {
				return a.pkg + "." + e.Name
			}
			if tn := typeName(o.Type()); tn != "" {
				return a.pkg + "." + tn
			}
			return a.pkg + "." + e.Name // variable of an anonymous struct embedding a mutex
		}
	}
	p := a.fset.Position(x.Pos())
	return fmt.Sprintf("%s.<expression at %s:%d>", a.pkg, filepath.Base(p.Filename), p.Line)
}

// declaringType is the type whose struct declares the selected field: the
// receiver, or for a promoted field the embedded type it comes from.
func declaringType(sel *types.Selection) types.Type {
	t := sel.Recv()
	idx := sel.Index()
	for _, i := range idx[:len(idx)-1] {
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok {
			return t
		}
		t = st.Field(i).Type()
	}
	return t
}

func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func (a *pkgAnalysis) isLockCall(se *ast.SelectorExpr) bool {
	tv, ok := a.info.Types[se.X]
	if !ok {
		return false
	}
	if isMutex(tv.Type) {
		return true
	}
	// a value whose type embeds a mutex
	if sel, ok := a.info.Selections[se]; ok && len(sel.Index()) > 1 {
		return true
	}
	return false
}

// collect records f's lock events and calls in source order; function
// literals become functions of their own (returned).
func (a *pkgAnalysis) collect(body ast.Node, f *function) []*function {
	var lits []*function
	var stack []ast.Node
	spawned := map[*ast.CallExpr]bool{} // the calls of go statements
	block := func() ast.Node {
		for i := len(stack) - 1; i >= 0; i-- {
			switch stack[i].(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				return stack[i]
			}
		}
		return nil
	}
	visit := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			p := a.fset.Position(n.Pos())
			g := &function{name: fmt.Sprintf("%s.func@%d", f.name, p.Line), end: n.End()}
			lits = append(lits, g)
			if key, ok := a.pendingLit[n]; ok {
				a.funcs["lit:"+g.name] = g
				a.binds[key] = append(a.binds[key], "lit:"+g.name)
			}
			lits = append(lits, a.collect(n.Body, g)...)
			return false
		case *ast.DeferStmt:
			if se, ok := n.Call.Fun.(*ast.SelectorExpr); ok && (se.Sel.Name == "Unlock" || se.Sel.Name == "RUnlock") && a.isLockCall(se) {
				f.events = append(f.events, event{pos: n.Pos(), unlock: a.lockID(se.X), deferU: true, blk: block()})
				return false
			}
		case *ast.CompositeLit:
			a.bindFields(n)
		case *ast.GoStmt:
			// A new goroutine holds none of its starter's locks: its
			// function is not a call made under them (its arguments
			// are evaluated here, and are visited).
			spawned[n.Call] = true
		case *ast.CallExpr:
			if spawned[n] {
				return true
			}
			var id *ast.Ident
			switch fe := n.Fun.(type) {
			case *ast.SelectorExpr:
				id = fe.Sel
				if sel, ok := a.info.Selections[fe]; ok && sel.Kind() == types.FieldVal {
					f.events = append(f.events, event{pos: n.Pos(), callee: "field:" + fieldKey(sel, fe.Sel.Name), blk: block()})
				}
				if a.isLockCall(fe) {
					switch fe.Sel.Name {
					case "Lock", "RLock":
						f.events = append(f.events, event{pos: n.Pos(), lock: a.lockID(fe.X), blk: block()})
						return true
					case "Unlock", "RUnlock":
						f.events = append(f.events, event{pos: n.Pos(), unlock: a.lockID(fe.X), blk: block()})
						return true
					}
				}
			case *ast.Ident:
				id = fe
			}
			if id != nil {
				if o, ok := a.info.Uses[id].(*types.Func); ok {
					f.events = append(f.events, event{pos: n.Pos(), callee: o.FullName(), blk: block()})
				}
			}
		}
		return true
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if !visit(n) {
			stack = stack[:len(stack)-1]
			return false
		}
		return true
	})
	return lits
}

// Levels orders the locks of r: level 0 holds the locks nothing is taken
// before, and every edge goes from a lower level to a higher one (the
// longest chain of edges leading to a lock). Locks on a cycle are
// returned in cycle instead (nil when the order is consistent).
func (r *Result) Levels() (level map[string]int, cycle []string) {
	next := map[string][]string{}
	indeg := map[string]int{}
	for _, l := range r.Locks {
		indeg[l] += 0
	}
	for _, e := range r.Edges {
		next[e.A] = append(next[e.A], e.B)
		indeg[e.B]++
		indeg[e.A] += 0
	}
	level = map[string]int{}
	var ready []string
	for l, d := range indeg {
		if d == 0 {
			ready = append(ready, l)
		}
	}
	done := 0
	for len(ready) > 0 {
		l := ready[0]
		ready = ready[1:]
		done++
		for _, m := range next[l] {
			if level[l]+1 > level[m] {
				level[m] = level[l] + 1
			}
			if indeg[m]--; indeg[m] == 0 {
				ready = append(ready, m)
			}
		}
	}
	if done < len(indeg) {
		for l, d := range indeg {
			if d > 0 {
				cycle = append(cycle, l)
			}
		}
		sort.Strings(cycle)
	}
	return level, cycle
}

// Table returns the rows of the docs/internals.md table: one per level,
// then the leaves (locks on no edge).
func (r *Result) Table() (string, error) {
	lv, cycle := r.Levels()
	if cycle != nil {
		return "", fmt.Errorf("locks on or after a cycle: %v", cycle)
	}
	nested := map[string]bool{}
	for _, e := range r.Edges {
		nested[e.A], nested[e.B] = true, true
	}
	byLevel := map[int][]string{}
	var leaves []string
	top := 0
	for _, l := range r.Locks {
		if !nested[l] {
			leaves = append(leaves, "`"+l+"`")
			continue
		}
		byLevel[lv[l]] = append(byLevel[lv[l]], "`"+l+"`")
		top = max(top, lv[l])
	}
	var b strings.Builder
	for i := 0; i <= top; i++ {
		fmt.Fprintf(&b, "| %d | %s |\n", i, strings.Join(byLevel[i], " "))
	}
	fmt.Fprintf(&b, "| leaf | %s |\n", strings.Join(leaves, " "))
	return b.String(), nil
}

// bindFields records the functions a struct literal assigns to its fields
// of function type (binds).
func (a *pkgAnalysis) bindFields(n *ast.CompositeLit) {
	tv, ok := a.info.Types[n]
	if !ok {
		return
	}
	t := deref(tv.Type)
	if _, ok := t.Underlying().(*types.Struct); !ok {
		return
	}
	for _, el := range n.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		k, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		key := types.TypeString(t, nil) + "." + k.Name
		switch v := kv.Value.(type) {
		case *ast.FuncLit:
			a.pendingLit[v] = key
		case *ast.Ident:
			if o, ok := a.info.Uses[v].(*types.Func); ok {
				a.binds[key] = append(a.binds[key], o.FullName())
			}
		case *ast.SelectorExpr:
			if o, ok := a.info.Uses[v.Sel].(*types.Func); ok {
				a.binds[key] = append(a.binds[key], o.FullName())
			}
		}
	}
}
