package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func (m *mover) newEdit(path string, f *ast.File, src []byte) *fileEdit {
	fe := &fileEdit{path: path, src: src, tf: m.fset.File(f.Pos()), file: f, idents: map[int]bool{}}
	m.edits[path] = fe
	return fe
}

func (m *mover) relDir(dir string) string {
	r, err := filepath.Rel(m.absRoot(), dir)
	if err != nil {
		return dir
	}
	return "./" + filepath.ToSlash(r)
}

// usesIdent reports whether the file has an identifier called name that
// could clash with an import of that name (selected fields and methods,
// struct field names and composite-literal keys cannot).
func usesIdent(f *ast.File, name string) bool {
	ignore := map[*ast.Ident]bool{f.Name: true}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ignore[n.Sel] = true
		case *ast.StructType:
			for _, fl := range n.Fields.List {
				for _, id := range fl.Names {
					ignore[id] = true
				}
			}
		case *ast.CompositeLit:
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						ignore[id] = true
					}
				}
			}
		case *ast.Ident:
			if n.Name == name && !ignore[n] {
				found = true
			}
		}
		return !found
	})
	return found
}

// qualClash names what the qualifier would denote at pos instead of the
// destination package ("" when nothing).
func (m *mover) qualClash(qual string, pos token.Pos) string {
	sc := m.sp.pkg.Scope().Innermost(pos)
	if sc == nil {
		return ""
	}
	_, x := sc.LookupParent(qual, pos)
	if x == nil || x.Parent() == m.sp.pkg.Scope() {
		return "" // a package-level clash is reported once per file
	}
	if pn, ok := x.(*types.PkgName); ok && pn.Imported().Path() == m.destPath {
		return ""
	}
	return fmt.Sprintf("%s is declared at %s", qual, m.pos(x.Pos()))
}

// rewriteSource edits the type-checked files of the source package.
func (m *mover) rewriteSource() {
	info := m.sp.info
	scope := m.sp.pkg.Scope()
	for i, f := range m.sp.files {
		name := m.sp.names[i]
		path := filepath.Join(m.sp.Dir, name)
		src, err := os.ReadFile(path)
		if err != nil {
			m.errorf("%v", err)
			continue
		}
		fe := m.newEdit(path, f, src)
		moved := m.moved[name]
		skip := map[*ast.Ident]bool{}
		var qual string
		var qualUsed bool
		if moved {
			fe.outPath = filepath.Join(m.destDir, name)
			fe.replaceIdent(f.Name, m.destName)
			fe.changed = true
			m.touched[m.relDir(m.destDir)] = true
			m.planMv = append(m.planMv, fmt.Sprintf("%s/%s -> %s/%s", m.srcRel, name, m.destRel, name))
			m.unqualifyDest(fe, f)
		} else {
			qual, _ = importName(f, m.destPath, m.destName)
			if qual == "" {
				qual = m.destName
			}
			m.convertDecls(fe, f, skip, qual, &qualUsed)
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.CompositeLit); ok && m.unkeyed[lit] != nil {
					st := m.unkeyed[lit]
					for j, e := range lit.Elts {
						fe.add(e.Pos(), e.Pos(), m.finalName(origin(st.Field(j)))+": ", -1<<40)
					}
				}
				return true
			})
			m.convertCalls(fe, f, qual)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || skip[id] {
				return true
			}
			o, isDef := info.Uses[id], false
			if o == nil {
				o, isDef = info.Defs[id], true
			}
			if o == nil {
				return true
			}
			o = origin(o)
			text := m.finalName(o)
			if !moved && !isDef && m.movedObj[o] && o.Parent() == scope {
				if c := m.qualClash(qual, id.Pos()); c != "" {
					m.errorf("%s: %s must become %s.%s but %s", m.pos(id.Pos()), id.Name, qual, text, c)
					return true
				}
				qualUsed = true
				text = qual + "." + text
			}
			fe.replaceIdent(id, text)
			return true
		})
		if qualUsed {
			if o := scope.Lookup(qual); o != nil && !m.movedObj[o] {
				m.errorf("%s: needs the import %s but package %s declares %s (%s)", m.pos(f.Package), qual, m.sp.Name, qual, m.pos(o.Pos()))
			}
			if q, _ := importName(f, m.destPath, m.destName); q == "" {
				fe.addImport(m.destPath, m.destName)
			}
		}
		if fe.changed && !moved {
			m.touched[m.relDir(m.sp.Dir)] = true
		}
		if moved {
			m.renameDocs(fe, f)
		}
	}
}

// unqualifyDest turns dest.X into X in a file moving into dest.
func (m *mover) unqualifyDest(fe *fileEdit, f *ast.File) {
	q, spec := importName(f, m.destPath, m.destName)
	if spec == nil {
		return
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				if pn, ok := m.sp.info.Uses[id].(*types.PkgName); ok && pn.Imported().Path() == m.destPath && id.Name == q {
					fe.add(sel.X.Pos(), sel.Sel.Pos(), "", 0)
				}
			}
		}
		return true
	})
	fe.removeImport(spec)
}

// renameDocs gives doc comments of renamed declarations the new name.
func (m *mover) renameDocs(fe *fileEdit, f *ast.File) {
	doc := func(id *ast.Ident, cg *ast.CommentGroup) {
		if o := m.sp.info.Defs[id]; o != nil {
			if nn, ok := m.newName[o]; ok {
				fe.renameDoc(cg, o.Name(), nn)
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch d := n.(type) {
		case *ast.FuncDecl:
			doc(d.Name, d.Doc)
		case *ast.GenDecl:
			if len(d.Specs) == 1 && d.Doc != nil {
				switch s := d.Specs[0].(type) {
				case *ast.TypeSpec:
					doc(s.Name, d.Doc)
				case *ast.ValueSpec:
					doc(s.Names[0], d.Doc)
				}
			}
		case *ast.TypeSpec:
			doc(d.Name, d.Doc)
		case *ast.ValueSpec:
			doc(d.Names[0], d.Doc)
		case *ast.Field:
			if len(d.Names) > 0 {
				doc(d.Names[0], d.Doc)
			}
		}
		return true
	})
}

// convertDecls turns the staying methods of moved types into functions.
func (m *mover) convertDecls(fe *fileEdit, f *ast.File, skip map[*ast.Ident]bool, qual string, qualUsed *bool) {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil {
			continue
		}
		fn, _ := m.sp.info.Defs[fd.Name].(*types.Func)
		newFn, ok := m.converted[fn]
		if !ok {
			continue
		}
		if c := m.qualClash(qual, fd.Type.Params.Opening); c != "" {
			m.errorf("%s: the receiver type must become %s.X but %s", m.pos(fd.Pos()), qual, c)
			continue
		}
		*qualUsed = true
		skip[fd.Name] = true
		ast.Inspect(fd.Recv, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				skip[id] = true
			}
			return true
		})
		rf := fd.Recv.List[0]
		rname := "_"
		if len(rf.Names) > 0 {
			rname = rf.Names[0].Name
		}
		named := namedOf(fn.Type().(*types.Signature).Recv().Type())
		rtype := qual + "." + m.finalName(named.Obj())
		if _, ok := rf.Type.(*ast.StarExpr); ok {
			rtype = "*" + rtype
		}
		fe.add(fd.Recv.Opening, fd.Name.End(), newFn, 0)
		sep := ""
		if len(fd.Type.Params.List) > 0 {
			sep = ", "
		}
		fe.add(fd.Type.Params.Opening+1, fd.Type.Params.Opening+1, rname+" "+rtype+sep, -1<<30)
		fe.renameDoc(fd.Doc, fn.Name(), newFn)
	}
}

// convertCalls rewrites x.m(args) into m(x, args) for converted methods,
// and reports any other use of them.
func (m *mover) convertCalls(fe *fileEdit, f *ast.File, qual string) {
	info := m.sp.info
	scope := m.sp.pkg.Scope()
	done := map[*ast.SelectorExpr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		s := info.Selections[sel]
		if s == nil || s.Kind() != types.MethodVal {
			return true
		}
		fn, _ := origin(s.Obj()).(*types.Func)
		newFn, ok := m.converted[fn]
		if !ok {
			return true
		}
		done[sel] = true
		path, last := m.embeddedPath(info.Types[sel.X].Type, s.Index())
		if sc := scope.Innermost(call.Pos()); sc != nil {
			if _, x := sc.LookupParent(newFn, call.Pos()); x != nil && x.Parent() != scope && x.Parent() != types.Universe {
				m.errorf("%s: %s becomes a call of %s, which is shadowed here by %s", m.pos(call.Pos()), m.display(fn), newFn, m.pos(x.Pos()))
				return true
			}
		}
		_, wantPtr := fn.Type().(*types.Signature).Recv().Type().(*types.Pointer)
		_, isPtr := last.Underlying().(*types.Pointer)
		prefix := ""
		if wantPtr && !isPtr {
			prefix = "&"
		} else if !wantPtr && isPtr {
			prefix = "*"
		}
		fe.add(sel.X.Pos(), sel.X.Pos(), newFn+"("+prefix, -int(call.End()))
		sep := ""
		if len(call.Args) > 0 {
			sep = ", "
		}
		fe.add(sel.X.End(), call.Lparen+1, path+sep, 0)
		return true
	})
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || done[sel] {
			return true
		}
		if s := info.Selections[sel]; s != nil {
			if fn, ok := origin(s.Obj()).(*types.Func); ok {
				if _, conv := m.converted[fn]; conv {
					m.errorf("%s: %s is used as a method value or method expression, not called; the tool cannot convert it", m.pos(sel.Pos()), m.display(fn))
				}
			}
		}
		return true
	})
}

// rewriteOthers rewrites src.X selectors in every other package of the
// module (test files, external tests and build-tag-excluded files too).
func (m *mover) rewriteOthers() error {
	files, err := m.otherFiles()
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := m.rewriteImporter(f); err != nil {
			return err
		}
	}
	return nil
}

// otherFiles lists the Go files of the module outside the source package
// (its external tests included; shared/ and what the go tool ignores left
// out).
func (m *mover) otherFiles() ([]string, error) {
	if m.others != nil {
		return m.others, nil
	}
	ps, err := goList(m.root, "./...")
	if err != nil {
		return nil, err
	}
	shared := filepath.Join(m.absRoot(), "shared")
	m.others = []string{}
	for _, p := range ps {
		if p.Dir == shared || strings.HasPrefix(p.Dir, shared+string(filepath.Separator)) {
			continue
		}
		var names []string
		if p.Dir == m.sp.Dir {
			names = p.XTestGoFiles
		} else {
			for _, l := range [][]string{p.GoFiles, p.CgoFiles, p.TestGoFiles, p.XTestGoFiles, p.IgnoredGoFiles} {
				names = append(names, l...)
			}
		}
		for _, n := range names {
			m.others = append(m.others, filepath.Join(p.Dir, n))
		}
	}
	return m.others, nil
}

// selectorsNamed finds selectors .name in the files outside the source
// package (read without types: any selector of that name counts).
func (m *mover) selectorsNamed(name string) ([]string, error) {
	files, err := m.otherFiles()
	if err != nil {
		return nil, err
	}
	var at []string
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		if !strings.Contains(string(src), name) {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == name {
				p := fset.Position(sel.Sel.Pos())
				rel, _ := filepath.Rel(m.absRoot(), p.Filename)
				at = append(at, fmt.Sprintf("%s:%d", filepath.ToSlash(rel), p.Line))
			}
			return true
		})
	}
	return at, nil
}

func (m *mover) rewriteImporter(file string) error {
	src, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	f, err := parser.ParseFile(m.fset, file, src, parser.ParseComments)
	if err != nil {
		return err
	}
	local, spec := importName(f, m.sp.ImportPath, m.sp.Name)
	if spec == nil || local == "_" {
		return nil
	}
	if local == "." {
		m.errorf("%s: dot import of %s is not supported", m.pos(spec.Pos()), m.sp.ImportPath)
		return nil
	}
	destLocal, dspec := importName(f, m.destPath, m.destName)
	type hit struct {
		sel *ast.SelectorExpr
		o   types.Object
	}
	var hits []hit
	remaining := 0
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || id.Name != local || id.Obj != nil {
			return true
		}
		if o := m.sp.pkg.Scope().Lookup(sel.Sel.Name); o != nil && m.movedObj[o] {
			hits = append(hits, hit{sel, o})
		} else {
			remaining++
		}
		return true
	})
	if len(hits) == 0 {
		return nil
	}
	if filepath.Dir(file) == m.destDir && f.Name.Name == m.destName {
		m.errorf("%s: the destination package imports %s (an import cycle once the files move)", m.pos(spec.Pos()), m.sp.ImportPath)
		return nil
	}
	fe := m.newEdit(file, f, src)
	if dspec == nil {
		destLocal = m.destName
		if usesIdent(f, destLocal) && !(remaining == 0 && local == destLocal) {
			m.errorf("%s: needs %s.X but the file already uses the identifier %s", m.pos(hits[0].sel.Pos()), m.destName, m.destName)
			return nil
		}
	}
	for _, h := range hits {
		fe.add(h.sel.Pos(), h.sel.End(), destLocal+"."+m.finalName(h.o), 0)
	}
	switch {
	case dspec == nil && remaining == 0:
		// The source import becomes the destination's.
		text := strconv.Quote(m.destPath)
		if m.destName != path.Base(m.destPath) {
			text = m.destName + " " + text
		}
		fe.add(spec.Pos(), spec.Path.End(), text, 0)
	case dspec == nil:
		fe.addImport(m.destPath, m.destName)
	case remaining == 0:
		fe.removeImport(spec)
	}
	m.touched[m.relDir(filepath.Dir(file))] = true
	return nil
}

func (m *mover) printPlan(paths []string) {
	w := m.out
	fmt.Fprintf(w, "move %s -> %s (package %s)\n", m.sp.ImportPath, m.destPath, m.destName)
	section := func(title string, lines []string) {
		fmt.Fprintf(w, "%s (%d):\n", title, len(lines))
		for _, l := range lines {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	sort.Strings(m.planMv)
	section("files moved", m.planMv)
	section("names exported", m.planExport)
	section("methods converted", m.planConv)
	byDir := map[string][]string{}
	for _, p := range paths {
		if fe := m.edits[p]; fe.outPath == "" {
			d := m.relDir(filepath.Dir(p))
			byDir[d] = append(byDir[d], filepath.Base(p))
		}
	}
	var dirs []string
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	var lines []string
	for _, d := range dirs {
		lines = append(lines, d+": "+strings.Join(byDir[d], " "))
	}
	section("files rewritten", lines)
	for _, p := range paths {
		if fe := m.edits[p]; ast.IsGenerated(fe.file) {
			how := "rewritten"
			if fe.outPath != "" {
				how = "moved"
			}
			m.warns = append(m.warns, fmt.Sprintf("%s is generated (DO NOT EDIT) and %s here: change its generator to match", m.relDir(p)[2:], how))
		}
	}
	for _, x := range m.warns {
		fmt.Fprintln(w, "warning:", x)
	}
}

// verify builds the module and vets the touched packages with the
// rewritten files laid over the tree (go build -overlay), before anything
// is written.
func (m *mover) verify(paths []string, outs map[string][]byte) error {
	tmp, err := os.MkdirTemp("", "movefiles")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	replace := map[string]string{}
	for i, p := range paths {
		fe := m.edits[p]
		f := filepath.Join(tmp, fmt.Sprintf("%d.go", i))
		if err := os.WriteFile(f, outs[p], 0o644); err != nil {
			return err
		}
		if fe.outPath != "" {
			replace[fe.outPath] = f
			replace[fe.path] = "" // deleted
		} else {
			replace[fe.path] = f
		}
	}
	js, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return err
	}
	overlay := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlay, js, 0o644); err != nil {
		return err
	}
	var dirs []string
	for d := range m.touched {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, args := range [][]string{{"build", "./..."}, append([]string{"vet"}, dirs...)} {
		shown := "go " + strings.Join(args, " ")
		fmt.Fprintln(m.out, "$", shown, "(over the rewritten files)")
		cmd := exec.Command("go", append([]string{args[0], "-overlay=" + overlay}, args[1:]...)...)
		cmd.Dir = m.root
		out, err := cmd.CombinedOutput()
		m.out.Write(out)
		if err != nil {
			return fmt.Errorf("nothing written: %s fails on the rewritten tree (%v):\n%s", shown, err, out)
		}
	}
	return nil
}

// embeddedPath spells out the embedded fields a promoted method call goes
// through (".Inner.Base", final names) and the type of the last of them
// (t itself when the method is not promoted).
func (m *mover) embeddedPath(t types.Type, index []int) (string, types.Type) {
	path := ""
	for _, i := range index[:len(index)-1] {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		f := t.Underlying().(*types.Struct).Field(i)
		path += "." + m.finalName(origin(f))
		t = f.Type()
	}
	return path, t
}
