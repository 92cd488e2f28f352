package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// stayingFile reports whether p lies in a type-checked file that stays.
func (m *mover) stayingFile(p token.Pos) bool { return m.fileIndex(p) >= 0 && !m.isMovedFile(p) }

// interfaces lists the interface types the source package can see: the
// types of its expressions, the types it names and those of its imports.
func (m *mover) interfaces() []*types.Interface {
	seen := map[*types.Interface]bool{}
	var list []*types.Interface
	add := func(t types.Type) {
		if t == nil {
			return
		}
		if _, ok := t.(*types.TypeParam); ok {
			return
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.TypeParams().Len() > 0 && n.TypeArgs().Len() == 0 {
			return
		}
		if it, ok := t.Underlying().(*types.Interface); ok && it.NumMethods() > 0 && !seen[it] {
			seen[it] = true
			list = append(list, it)
		}
	}
	add(types.Universe.Lookup("error").Type())
	for _, tv := range m.sp.info.Types {
		add(tv.Type)
	}
	for _, objs := range []map[*ast.Ident]types.Object{m.sp.info.Defs, m.sp.info.Uses} {
		for _, o := range objs {
			if tn, ok := o.(*types.TypeName); ok {
				add(tn.Type())
			}
		}
	}
	for _, p := range m.sp.pkg.Imports() {
		for _, n := range p.Scope().Names() {
			if tn, ok := p.Scope().Lookup(n).(*types.TypeName); ok {
				add(tn.Type())
			}
		}
	}
	return list
}

// satisfies names an interface method that T's (or *T's) method name
// implements, or "".
func satisfies(ifaces []*types.Interface, named *types.Named, name string) string {
	if named.TypeParams().Len() > 0 {
		return ""
	}
	for _, it := range ifaces {
		for i := 0; i < it.NumMethods(); i++ {
			if it.Method(i).Name() != name {
				continue
			}
			if types.Implements(named, it) || types.Implements(types.NewPointer(named), it) {
				return it.String()
			}
		}
	}
	return ""
}

// planConversions picks the methods declared in staying files whose
// receiver type moves, and the names of the functions they become.
func (m *mover) planConversions() {
	m.converted = map[*types.Func]string{}
	scope := m.sp.pkg.Scope()
	taken := map[string]bool{}
	for _, n := range scope.Names() {
		if !m.movedObj[scope.Lookup(n)] {
			taken[n] = true
		}
	}
	var ifaces []*types.Interface
	type conv struct {
		fn    *types.Func
		named *types.Named
	}
	var convs []conv
	count := map[string]int{}
	for i, f := range m.sp.files {
		if m.moved[m.sp.names[i]] {
			continue
		}
		for _, s := range f.Imports {
			if o := m.sp.info.Defs[s.Name]; o != nil {
				taken[o.Name()] = true
			} else if o := m.sp.info.Implicits[s]; o != nil {
				taken[o.Name()] = true
			}
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			fn, _ := m.sp.info.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			named := namedOf(fn.Type().(*types.Signature).Recv().Type())
			if named == nil || !m.movedObj[named.Obj()] {
				continue
			}
			where := m.pos(fd.Pos())
			switch {
			case named.TypeParams().Len() > 0:
				m.errorf("%s: method %s of generic type %s stays but its type moves; move it too", where, fn.Name(), named.Obj().Name())
				continue
			case fn.Exported():
				// Callers in other packages are not type-checked: any
				// selector of that name there refuses the conversion.
				at, err := m.selectorsNamed(fn.Name())
				if err != nil {
					m.errorf("%v", err)
					continue
				}
				if len(at) > 0 {
					if len(at) > 3 {
						at = append(at[:3], "...")
					}
					m.errorf("%s: exported method %s.%s stays but its type moves, and other packages select .%s (%s); move it too or unexport it", where, named.Obj().Name(), fn.Name(), fn.Name(), strings.Join(at, " "))
					continue
				}
			}
			if ifaces == nil {
				ifaces = m.interfaces()
			}
			if it := satisfies(ifaces, named, fn.Name()); it != "" {
				m.errorf("%s: method %s.%s stays but its type moves, and it implements %s; move it too", where, named.Obj().Name(), fn.Name(), it)
				continue
			}
			convs = append(convs, conv{fn, named})
			count[fn.Name()]++
		}
	}
	sort.Slice(convs, func(i, j int) bool { return convs[i].fn.Pos() < convs[j].fn.Pos() })
	for _, c := range convs {
		name := c.fn.Name()
		if taken[name] || count[name] > 1 {
			name = lowerFirst(c.named.Obj().Name()) + upperFirst(c.fn.Name())
		}
		if taken[name] {
			m.errorf("%s: method %s.%s becomes function %s, which is already declared in package %s", m.pos(c.fn.Pos()), c.named.Obj().Name(), c.fn.Name(), name, m.sp.Name)
			continue
		}
		taken[name] = true
		m.converted[c.fn] = name
		recv := c.named.Obj().Name()
		if _, ok := c.fn.Type().(*types.Signature).Recv().Type().(*types.Pointer); ok {
			recv = "*" + recv
		}
		m.planConv = append(m.planConv, fmt.Sprintf("(%s).%s -> func %s  (%s)", recv, c.fn.Name(), name, m.pos(c.fn.Pos())))
	}
}

// planExports decides the new names: -rename first, then every moved
// unexported object used from a staying file; and checks collisions.
func (m *mover) planExports(renames []string) {
	m.newName = map[types.Object]string{}
	scope := m.sp.pkg.Scope()
	need := map[types.Object]bool{}
	mark := func(o types.Object) {
		if v, ok := o.(*types.Var); ok && v.Embedded() {
			n := namedOf(v.Type())
			if n == nil || !m.movedObj[n.Obj()] {
				return
			}
			o = n.Obj()
		}
		if m.movedObj[o] && !o.Exported() {
			need[o] = true
		}
	}
	for id, o := range m.sp.info.Uses {
		if m.stayingFile(id.Pos()) {
			mark(origin(o))
		}
	}
	// A converted method called through embedded fields: the call spells
	// them out, so they are used.
	for sel, s := range m.sp.info.Selections {
		fn, ok := origin(s.Obj()).(*types.Func)
		if _, conv := m.converted[fn]; !ok || !conv || len(s.Index()) < 2 || !m.stayingFile(sel.Pos()) {
			continue
		}
		t := s.Recv()
		for _, i := range s.Index()[:len(s.Index())-1] {
			if p, ok := t.Underlying().(*types.Pointer); ok {
				t = p.Elem()
			}
			f := t.Underlying().(*types.Struct).Field(i)
			mark(origin(f))
			t = f.Type()
		}
	}
	// Unkeyed literals of moved struct types in staying files get keys
	// (vet's composites check): every field is then used by name.
	m.unkeyed = map[*ast.CompositeLit]*types.Struct{}
	for i, f := range m.sp.files {
		if m.moved[m.sp.names[i]] {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || len(lit.Elts) == 0 {
				return true
			}
			if _, keyed := lit.Elts[0].(*ast.KeyValueExpr); keyed {
				return true
			}
			named := namedOf(m.sp.info.Types[lit].Type)
			if named == nil || !m.movedObj[named.Origin().Obj()] {
				return true
			}
			if st, ok := named.Underlying().(*types.Struct); ok {
				m.unkeyed[lit] = st
				for j := 0; j < st.NumFields(); j++ {
					mark(origin(st.Field(j)))
				}
			}
			return true
		})
	}
	for _, r := range renames {
		old, nw, ok := strings.Cut(r, "=")
		if !ok || !token.IsIdentifier(nw) {
			m.errorf("-rename %s: want old=New or Type.field=New", r)
			continue
		}
		var cands []types.Object
		if strings.Contains(old, ".") {
			for o := range m.movedObj {
				if o.Parent() != scope && m.display(o) == old {
					cands = append(cands, o)
				}
			}
		} else {
			for o := range m.movedObj {
				if o.Parent() == scope && o.Name() == old {
					cands = append(cands, o)
				}
			}
			if len(cands) == 0 {
				for o := range m.movedObj {
					if o.Name() == old {
						cands = append(cands, o)
					}
				}
			}
		}
		switch len(cands) {
		case 0:
			m.errorf("-rename %s: no moved object is named %s", r, old)
		case 1:
			m.newName[cands[0]] = nw
		default:
			var ds []string
			for _, o := range cands {
				ds = append(ds, m.display(o))
			}
			sort.Strings(ds)
			m.errorf("-rename %s: %s is ambiguous (%s); write Type.%s=%s", r, old, strings.Join(ds, ", "), old, nw)
		}
	}
	for o := range need {
		if _, ok := m.newName[o]; !ok {
			m.newName[o] = upperFirst(o.Name())
		}
		if !token.IsExported(m.newName[o]) {
			m.errorf("%s: %s is used from a file that stays but %s is not exported", m.pos(o.Pos()), m.display(o), m.newName[o])
		}
	}
	// An embedded field is named by its type.
	for _, o := range m.sp.info.Defs {
		if v, ok := o.(*types.Var); ok && v.Embedded() {
			if n := namedOf(v.Type()); n != nil {
				if nn, ok := m.newName[n.Obj()]; ok {
					m.newName[v] = nn
				}
			}
		}
	}
	m.checkRenames()
	tagged := map[string]bool{}
	for o := range m.newName {
		if v, ok := o.(*types.Var); ok && v.IsField() && m.movedObj[o] && !tagged[m.owner[o]] {
			if tn, ok := scope.Lookup(m.owner[o]).(*types.TypeName); ok {
				if st, ok := tn.Type().Underlying().(*types.Struct); ok {
					for i := 0; i < st.NumFields(); i++ {
						if st.Tag(i) != "" {
							tagged[m.owner[o]] = true
							m.warns = append(m.warns, fmt.Sprintf("%s: struct %s has tags and fields that become exported: encoders (json, gob, reflect) now see them", m.pos(tn.Pos()), tn.Name()))
							break
						}
					}
				}
			}
		}
	}
	for o, n := range m.newName {
		if m.movedObj[o] {
			m.planExport = append(m.planExport, fmt.Sprintf("%s -> %s", m.display(o), n))
		}
	}
	sort.Strings(m.planExport)
}

func (m *mover) checkRenames() {
	scope := m.sp.pkg.Scope()
	var ifaces []*types.Interface
	seen := map[string]bool{}
	report := func(format string, a ...any) {
		s := fmt.Sprintf(format, a...)
		if !seen[s] {
			seen[s] = true
			m.errs = append(m.errs, s)
		}
	}
	// Package scope of the destination.
	final := map[string][]string{}
	for o := range m.movedObj {
		if o.Parent() == scope && o.Name() != "_" && o.Name() != "init" {
			final[m.finalName(o)] = append(final[m.finalName(o)], m.display(o))
		}
	}
	for n, ds := range final {
		if f, ok := m.destNames[n]; ok {
			ds = append(ds, n+" (already in "+m.destRel+"/"+f+")")
		}
		if len(ds) > 1 {
			sort.Strings(ds)
			report("collision in package %s: %s all become %s", m.destName, strings.Join(ds, ", "), n)
		}
	}
	// Field and method sets.
	members := map[string][]string{}
	clash := map[types.Object]bool{} // reported once, not at every selector
	for o, nn := range m.newName {
		if o.Parent() == scope {
			continue
		}
		var named *types.Named
		if f, ok := o.(*types.Func); ok {
			r := f.Type().(*types.Signature).Recv()
			if _, isIface := r.Type().Underlying().(*types.Interface); isIface {
				report("%s: %s is an interface method; renaming it would break its implementations", m.pos(o.Pos()), m.display(o))
				continue
			}
			named = namedOf(r.Type())
			if named != nil && !o.Exported() {
				if ifaces == nil {
					ifaces = m.interfaces()
				}
				if it := satisfies(ifaces, named, o.Name()); it != "" {
					report("%s: %s implements %s; renaming it would break that", m.pos(o.Pos()), m.display(o), it)
					continue
				}
			}
		} else if tn, ok := scope.Lookup(m.owner[o]).(*types.TypeName); ok {
			named, _ = types.Unalias(tn.Type()).(*types.Named)
		}
		if named == nil {
			continue
		}
		key := named.Obj().Name() + "." + nn
		members[key] = append(members[key], m.display(o))
		if x, _, _ := types.LookupFieldOrMethod(named, true, m.sp.pkg, nn); x != nil && x != o {
			clash[o] = true
			report("collision in type %s: %s becomes %s, which is already %s", named.Obj().Name(), m.display(o), nn, m.pos(x.Pos()))
		}
	}
	for k, ds := range members {
		if len(ds) > 1 {
			sort.Strings(ds)
			report("collision in type %s: %s", k, strings.Join(ds, ", "))
		}
	}
	// Selectors whose new name would select something else.
	for sel, s := range m.sp.info.Selections {
		nn, ok := m.newName[origin(s.Obj())]
		if !ok || clash[origin(s.Obj())] {
			continue
		}
		if x, _, _ := types.LookupFieldOrMethod(s.Recv(), true, m.sp.pkg, nn); x != nil && origin(x) != origin(s.Obj()) {
			report("%s: collision: .%s would become .%s, which selects %s", m.pos(sel.Pos()), s.Obj().Name(), nn, m.pos(x.Pos()))
		}
	}
	// Package-level names shadowed at a use in a moved file.
	for id, o := range m.sp.info.Uses {
		nn, ok := m.newName[o]
		if !ok || o.Parent() != scope || !m.isMovedFile(id.Pos()) {
			continue
		}
		if sc := scope.Innermost(id.Pos()); sc != nil {
			if _, x := sc.LookupParent(nn, id.Pos()); x != nil && x != o && x.Parent() != scope && x.Parent() != types.Universe {
				report("%s: collision: %s becomes %s, which is shadowed here by %s", m.pos(id.Pos()), o.Name(), nn, m.pos(x.Pos()))
			}
		}
	}
}

// origin maps a field or method of an instantiated generic type to its
// declaration.
func origin(o types.Object) types.Object {
	switch x := o.(type) {
	case *types.Func:
		return x.Origin()
	case *types.Var:
		return x.Origin()
	}
	return o
}

// checkCrossing finds what cannot cross the package boundary: staying
// files using what a moving test file declares (a package's tests do not
// see another package's test files), and types on one side implementing an
// interface with unexported methods declared on the other.
func (m *mover) checkCrossing() {
	seen := map[string]bool{}
	report := func(format string, a ...any) {
		s := fmt.Sprintf(format, a...)
		if !seen[s] {
			seen[s] = true
			m.errs = append(m.errs, s)
		}
	}
	for id, o := range m.sp.info.Uses {
		o = origin(o)
		if m.movedObj[o] && m.stayingFile(id.Pos()) && strings.HasSuffix(m.fileOf(o.Pos()), "_test.go") {
			report("%s: %s is declared in %s, a test file that moves; the tests of %s cannot use it from %s", m.pos(id.Pos()), m.display(o), m.fileOf(o.Pos()), m.sp.Name, m.destName)
		}
	}
	scope := m.sp.pkg.Scope()
	var movedT, stayT, movedI, stayI []*types.Named
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue
		}
		moved := m.movedObj[tn]
		if it, ok := named.Underlying().(*types.Interface); ok {
			hidden := false
			for i := 0; i < it.NumMethods(); i++ {
				hidden = hidden || !it.Method(i).Exported()
			}
			if hidden && moved {
				movedI = append(movedI, named)
			} else if hidden {
				stayI = append(stayI, named)
			}
			continue
		}
		if moved {
			movedT = append(movedT, named)
		} else {
			stayT = append(stayT, named)
		}
	}
	pairs := func(ts, is []*types.Named) {
		for _, t := range ts {
			for _, i := range is {
				it := i.Underlying().(*types.Interface)
				if types.Implements(t, it) || types.Implements(types.NewPointer(t), it) {
					report("%s: %s implements %s (%s), whose unexported methods cannot be implemented from the other package; move both or neither", m.pos(t.Obj().Pos()), t.Obj().Name(), i.Obj().Name(), m.pos(i.Obj().Pos()))
				}
			}
		}
	}
	pairs(movedT, stayI)
	pairs(stayT, movedI)
	for i, f := range m.sp.files {
		if !m.moved[m.sp.names[i]] {
			continue
		}
		if f.Doc != nil {
			m.warns = append(m.warns, fmt.Sprintf("%s: the package doc comment of %s moves with this file: rewrite it for %s", m.pos(f.Doc.Pos()), m.sp.Name, m.destName))
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
				m.warns = append(m.warns, fmt.Sprintf("%s: func init moves: it will run before every init of %s, not in %s's order", m.pos(fd.Pos()), m.sp.Name, m.sp.Name))
			}
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//go:embed") || strings.HasPrefix(c.Text, "//go:linkname") {
					m.warns = append(m.warns, fmt.Sprintf("%s: %s is not rewritten; check it by hand", m.pos(c.Pos()), strings.Fields(c.Text)[0]))
				}
			}
		}
	}
}
