package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type mover struct {
	root string
	out  io.Writer
	fset *token.FileSet

	modPath                      string
	sp                           *srcPackage
	srcRel, destRel              string // module-relative directories
	destDir, destPath, destName  string
	moved                        map[string]bool // base names of moved files
	movedObj                     map[types.Object]bool
	owner                        map[types.Object]string             // field -> its struct type's name
	newName                      map[types.Object]string             // renamed objects
	converted                    map[*types.Func]string              // staying methods -> function name
	unkeyed                      map[*ast.CompositeLit]*types.Struct // in staying files, to key
	destNames                    map[string]string                   // names already declared in dest -> file
	errs                         []string
	warns                        []string
	edits                        map[string]*fileEdit
	others                       []string        // Go files outside the source package
	touched                      map[string]bool // module-relative package dirs
	planExport, planConv, planMv []string
}

func (m *mover) errorf(format string, a ...any) { m.errs = append(m.errs, fmt.Sprintf(format, a...)) }

func (m *mover) pos(p token.Pos) string {
	ps := m.fset.Position(p)
	rel, err := filepath.Rel(m.absRoot(), ps.Filename)
	if err != nil {
		rel = ps.Filename
	}
	return fmt.Sprintf("%s:%d", filepath.ToSlash(rel), ps.Line)
}

func (m *mover) absRoot() string { a, _ := filepath.Abs(m.root); return a }

func (m *mover) fileOf(p token.Pos) string { return filepath.Base(m.fset.Position(p).Filename) }

// inSrc reports whether an object is declared in the source package's files.
func (m *mover) inSrc(o types.Object) bool {
	return o != nil && o.Pkg() == m.sp.pkg && o.Pos().IsValid()
}

func (m *mover) isMovedFile(p token.Pos) bool { return m.moved[m.fileOf(p)] }

// display names an object: pkg-level name, Type.field or Type.method.
func (m *mover) display(o types.Object) string {
	if f, ok := o.(*types.Func); ok {
		if r := f.Type().(*types.Signature).Recv(); r != nil {
			return typeNameOf(r.Type()) + "." + o.Name()
		}
	}
	if v, ok := o.(*types.Var); ok && v.IsField() {
		return m.owner[o] + "." + o.Name()
	}
	return o.Name()
}

func typeNameOf(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	switch n := t.(type) {
	case *types.Named:
		return n.Obj().Name()
	case *types.Alias:
		return n.Obj().Name()
	}
	return t.String()
}

func namedOf(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// finalName is the name an object has after the move.
func (m *mover) finalName(o types.Object) string {
	if n, ok := m.newName[o]; ok {
		return n
	}
	return o.Name()
}

func (m *mover) run(from, to string, files, renames []string, dry, check bool) error {
	m.fset = token.NewFileSet()
	var err error
	if m.modPath, err = modulePath(m.root); err != nil {
		return err
	}
	m.srcRel = filepath.ToSlash(filepath.Clean(from))
	m.destRel = filepath.ToSlash(filepath.Clean(to))
	if m.srcRel == m.destRel {
		return errors.New("-from and -to are the same directory")
	}
	if strings.HasPrefix(m.destRel, "..") || filepath.IsAbs(m.destRel) {
		return fmt.Errorf("-to %s is outside the module", to)
	}
	m.destDir = filepath.Join(m.absRoot(), m.destRel)
	m.destPath = m.modPath + "/" + m.destRel
	m.destName = filepath.Base(m.destDir)
	if m.sp, err = loadSource(m.root, m.fset, "./"+m.srcRel); err != nil {
		return err
	}
	if err := m.readDest(); err != nil {
		return err
	}
	if !token.IsIdentifier(m.destName) {
		return fmt.Errorf("destination package name %q is not an identifier", m.destName)
	}
	m.moved = map[string]bool{}
	known := map[string]bool{}
	for _, n := range m.sp.names {
		known[n] = true
	}
	for _, f := range files {
		if filepath.Base(f) != f {
			m.errorf("-files %s: give base names of files in %s", f, m.srcRel)
		} else if contains(m.sp.XTestGoFiles, f) {
			m.errorf("-files %s: external test files (package %s_test) cannot be moved; move them by hand", f, m.sp.Name)
		} else if !known[f] {
			m.errorf("-files %s: not a Go file of package %s (build-tag-excluded files are not supported)", f, m.sp.ImportPath)
		} else if _, err := os.Stat(filepath.Join(m.destDir, f)); err == nil {
			m.errorf("-files %s: %s already exists", f, filepath.Join(m.destRel, f))
		}
		m.moved[f] = true
	}
	for _, f := range m.sp.IgnoredGoFiles {
		m.warns = append(m.warns, fmt.Sprintf("%s/%s is excluded by build constraints and is not rewritten", m.srcRel, f))
	}
	if err := m.failed(); err != nil {
		return err
	}
	m.collectMoved()
	m.checkStayingRefs()
	if err := m.failed(); err != nil {
		return err
	}
	m.planConversions()
	m.planExports(renames)
	m.checkCrossing()
	if err := m.failed(); err != nil {
		return err
	}
	m.edits = map[string]*fileEdit{}
	m.touched = map[string]bool{}
	m.rewriteSource()
	if err := m.rewriteOthers(); err != nil {
		return err
	}
	if err := m.failed(); err != nil {
		return err
	}
	outs := map[string][]byte{}
	var paths []string
	for p, fe := range m.edits {
		if !fe.changed && fe.outPath == "" {
			continue
		}
		b, err := fe.apply()
		if err != nil {
			return err
		}
		outs[p] = b
		paths = append(paths, p)
	}
	sort.Strings(paths)
	m.printPlan(paths)
	if dry {
		return nil
	}
	if check {
		// vet runs in the package directory: it must exist.
		made := missingDirs(m.destDir)
		if err := os.MkdirAll(m.destDir, 0o755); err != nil {
			return err
		}
		if err := m.verify(paths, outs); err != nil {
			for _, d := range made {
				os.Remove(d) // empty: made just now
			}
			return err
		}
	}
	if err := os.MkdirAll(m.destDir, 0o755); err != nil {
		return err
	}
	for _, p := range paths {
		fe := m.edits[p]
		dst := fe.path
		if fe.outPath != "" {
			dst = fe.outPath
		}
		if err := os.WriteFile(dst, outs[p], 0o644); err != nil {
			return err
		}
		if fe.outPath != "" {
			if err := os.Remove(fe.path); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(m.out, "written: %d files\n", len(paths))
	return nil
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func (m *mover) failed() error {
	if len(m.errs) == 0 {
		return nil
	}
	sortByPosition(m.errs)
	return fmt.Errorf("nothing written:\n  %s", strings.Join(m.errs, "\n  "))
}

// readDest records the package-level names of an existing destination
// package (parsed, not type-checked) and its package name.
func (m *mover) readDest() error {
	ents, err := os.ReadDir(m.destDir)
	if err != nil {
		return nil // created later
	}
	m.destNames = map[string]string{}
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(m.destDir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if strings.HasSuffix(f.Name.Name, "_test") {
			continue
		}
		m.destName = f.Name.Name
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name != "init" {
					m.destNames[d.Name.Name] = e.Name()
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						m.destNames[s.Name.Name] = e.Name()
					case *ast.ValueSpec:
						for _, n := range s.Names {
							m.destNames[n.Name] = e.Name()
						}
					}
				}
			}
		}
	}
	return nil
}

// collectMoved: every object defined in a moved file that is package-level,
// a method, a field or an interface method.
func (m *mover) collectMoved() {
	m.movedObj = map[types.Object]bool{}
	m.owner = map[types.Object]string{}
	scope := m.sp.pkg.Scope()
	for id, o := range m.sp.info.Defs {
		if o == nil || !m.isMovedFile(id.Pos()) {
			continue
		}
		isField := false
		if v, ok := o.(*types.Var); ok && v.IsField() {
			isField = true
		}
		isMethod := false
		if f, ok := o.(*types.Func); ok && f.Type().(*types.Signature).Recv() != nil {
			isMethod = true
		}
		if o.Parent() == scope || isField || isMethod {
			m.movedObj[o] = true
		}
	}
	for _, f := range m.sp.files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				ast.Inspect(ts.Type, func(n ast.Node) bool {
					if st, ok := n.(*ast.StructType); ok {
						for _, fl := range st.Fields.List {
							for _, id := range fieldIdents(fl) {
								if o := m.sp.info.Defs[id]; o != nil {
									m.owner[o] = ts.Name.Name
								}
							}
						}
					}
					return true
				})
			}
		}
	}
}

// fieldIdents are the identifiers that name a struct field (the type's
// name for an embedded field).
func fieldIdents(fl *ast.Field) []*ast.Ident {
	if len(fl.Names) > 0 {
		return fl.Names
	}
	if id := embeddedIdent(fl.Type); id != nil {
		return []*ast.Ident{id}
	}
	return nil
}

func embeddedIdent(e ast.Expr) *ast.Ident {
	switch t := e.(type) {
	case *ast.Ident:
		return t
	case *ast.StarExpr:
		return embeddedIdent(t.X)
	case *ast.SelectorExpr:
		return t.Sel
	case *ast.IndexExpr:
		return embeddedIdent(t.X)
	case *ast.IndexListExpr:
		return embeddedIdent(t.X)
	}
	return nil
}

// checkStayingRefs: a moved file may not use what stays behind.
func (m *mover) checkStayingRefs() {
	seen := map[string]bool{}
	for id, o := range m.sp.info.Uses {
		if !m.isMovedFile(id.Pos()) || !m.inSrc(o) || m.isMovedFile(o.Pos()) {
			continue
		}
		if _, ok := o.(*types.PkgName); ok {
			continue
		}
		msg := fmt.Sprintf("%s: %s (declared in %s)", m.pos(id.Pos()), m.display(o), m.fileOf(o.Pos()))
		if !seen[msg] {
			seen[msg] = true
			m.errorf("%s", msg)
		}
	}
}

// fileIndex gives the index of the type-checked file holding p.
func (m *mover) fileIndex(p token.Pos) int {
	for i, f := range m.sp.files {
		if f.FileStart <= p && p <= f.FileEnd {
			return i
		}
	}
	return -1
}

// sortByPosition sorts "file:line: ..." messages by file, then line.
func sortByPosition(msgs []string) {
	key := func(s string) (string, int) {
		file, rest, ok := strings.Cut(s, ":")
		if !ok {
			return s, 0
		}
		n := 0
		for _, c := range rest {
			if c < '0' || c > '9' {
				break
			}
			n = n*10 + int(c-'0')
		}
		return file, n
	}
	sort.SliceStable(msgs, func(i, j int) bool {
		fi, li := key(msgs[i])
		fj, lj := key(msgs[j])
		if fi != fj {
			return fi < fj
		}
		if li != lj {
			return li < lj
		}
		return msgs[i] < msgs[j]
	})
}

// missingDirs lists dir and its missing parents, deepest first.
func missingDirs(dir string) []string {
	var l []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || d == filepath.Dir(d) {
			return l
		}
		l = append(l, d)
	}
}
