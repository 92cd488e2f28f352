package main

// The Go mirrors of vendor structs, generated from our C headers the way
// Go's syscall package generates its structs with `cgo -godefs`: a probe
// that names every mirrored C type is compiled with debug information, and
// the layout the C compiler chose (DWARF) is written out as Go types with
// explicit padding. Our own rules, where cgo -godefs's do not fit a
// boundary that hands C and device addresses around:
//
//   - a field keeps its C name, first letter upper-cased (`id` → `Id`);
//   - pointers (data and function) are uintptr: they hold C or device
//     addresses the Go garbage collector must never follow;
//   - char arrays are byte arrays; enums are int32 when a value is negative,
//     uint32 otherwise (cgo's rule); _Bool is bool;
//   - a union is a byte array of its size, except an anonymous union member
//     of a struct, which is its first member followed by padding to the
//     union's size (cgo -godefs's rule);
//   - bit fields are padding (cgo cannot name them either);
//   - a nested struct is the mirror of its C type when that one is listed,
//     otherwise a generated type named from the C name (aclrtRandomParaInfo
//     → RandomParaInfo) or, when anonymous, from the outer type and field;
//   - every gap, and the tail up to the C size, is a blank byte array, so
//     every offset and the size are the C compiler's.
//
// A listed C type that is neither struct nor union (aclrtLabel, a pointer)
// has a hand-written Go type; TestMirrorsMatchC checks all of them alike.

import (
	"bytes"
	"debug/dwarf"
	"debug/elf"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// mirrorTypesFile is the generated file in each package that owns mirrors.
const mirrorTypesFile = "zmirrors.go"

// probeVar names the probe's variable for the i-th listed C type.
func probeVar(i int) string { return fmt.Sprintf("npuemu_mirror_%d", i) }

// cSpelling turns cgo's name of a C type (struct_X) into C's (struct X).
func cSpelling(cType string) string {
	for _, k := range []string{"struct_", "union_", "enum_"} {
		if strings.HasPrefix(cType, k) {
			return strings.TrimSuffix(k, "_") + " " + strings.TrimPrefix(cType, k)
		}
	}
	return cType
}

// compileProbe compiles a C file declaring a pointer to every listed type
// and returns the DWARF of the object, with the type of each variable.
func compileProbe(root, libDir string, pairs []mirrorPair, headers []string) (*dwarf.Data, map[string]dwarf.Type, error) {
	dir, err := os.MkdirTemp("", "shimgen-mirrors")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	var src bytes.Buffer
	src.WriteString("#include <stdbool.h>\n#include <stddef.h>\n")
	for _, h := range headers {
		fmt.Fprintf(&src, "#include %q\n", h)
	}
	src.WriteString("#include \"npu.h\"\n")
	for i, p := range pairs {
		fmt.Fprintf(&src, "%s *%s;\n", cSpelling(p.cType), probeVar(i))
	}
	cfile, ofile := filepath.Join(dir, "probe.c"), filepath.Join(dir, "probe.o")
	if err := os.WriteFile(cfile, src.Bytes(), 0o644); err != nil {
		return nil, nil, err
	}
	cc := strings.Fields(os.Getenv("CC"))
	if len(cc) == 0 {
		cc = []string{"gcc"}
	}
	cmd := exec.Command(cc[0], append(cc[1:], "-g", "-O0", "-c", "-o", ofile,
		"-I", filepath.Join(root, "emu", "include"), "-I", filepath.Join(root, "emu", "include", "driver"),
		"-I", libDir, cfile)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("compiling the mirror probe: %v\n%s", err, out)
	}
	f, err := elf.Open(ofile)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	d, err := f.DWARF()
	if err != nil {
		return nil, nil, err
	}
	vars := map[string]dwarf.Type{}
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			return nil, nil, err
		}
		if e == nil {
			break
		}
		if e.Tag != dwarf.TagVariable {
			continue
		}
		name, _ := e.Val(dwarf.AttrName).(string)
		off, ok := e.Val(dwarf.AttrType).(dwarf.Offset)
		if !ok || !strings.HasPrefix(name, "npuemu_mirror_") {
			continue
		}
		t, err := d.Type(off)
		if err != nil {
			return nil, nil, err
		}
		pt, ok := t.(*dwarf.PtrType)
		if !ok {
			return nil, nil, fmt.Errorf("%s: not a pointer in DWARF", name)
		}
		vars[name] = pt.Type
	}
	return d, vars, nil
}

// mirrorGen writes the Go types of one package.
type mirrorGen struct {
	pkg    string
	named  map[dwarf.Type]string // C type → Go name (listed and generated)
	cNames map[string]string     // Go name → C name, for doc lines
	done   map[string]bool       // Go types written
	queue  []dwarf.Type          // nested types still to write
	out    bytes.Buffer
	err    error
}

// strip resolves typedefs and qualifiers.
func strip(t dwarf.Type) dwarf.Type {
	for {
		switch x := t.(type) {
		case *dwarf.TypedefType:
			t = x.Type
		case *dwarf.QualType:
			t = x.Type
		default:
			return t
		}
	}
}

// goFieldName is a C field name exported: its first letter upper-cased.
func goFieldName(c string) string {
	r := []rune(c)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// goTypeName names a nested C type nobody listed: the C name without the
// API prefix and _t suffix, exported.
func goTypeName(c string) string {
	c = strings.TrimPrefix(strings.TrimPrefix(c, "struct "), "union ")
	c = strings.TrimSuffix(c, "_t")
	for _, p := range []string{"aclrt", "aclmdl", "acl", "rt", "hal", "drv"} {
		if strings.HasPrefix(c, p) && len(c) > len(p) && unicode.IsUpper(rune(c[len(p)])) {
			c = c[len(p):]
			break
		}
	}
	parts := strings.Split(c, "_")
	for i, p := range parts {
		if p != "" {
			parts[i] = goFieldName(p)
		}
	}
	return strings.Join(parts, "")
}

// cName is the name C gives t (typedef name preferred), or "".
func cName(t dwarf.Type) string {
	switch x := t.(type) {
	case *dwarf.TypedefType:
		return x.Name
	case *dwarf.StructType:
		if x.StructName != "" {
			return x.Kind + " " + x.StructName
		}
	}
	return ""
}

// goType returns the Go spelling of t, its Go alignment, queueing nested
// struct types to write; hint names an anonymous struct.
func (g *mirrorGen) goType(t dwarf.Type, hint string) (string, int64) {
	if n, ok := g.named[t]; ok {
		return n, g.align(strip(t))
	}
	s := strip(t)
	if n, ok := g.named[s]; ok {
		return n, g.align(s)
	}
	switch x := s.(type) {
	case *dwarf.PtrType, *dwarf.FuncType:
		return "uintptr", 8
	case *dwarf.BoolType:
		return "bool", 1
	case *dwarf.CharType, *dwarf.UcharType:
		return "byte", 1
	case *dwarf.IntType:
		return fmt.Sprintf("int%d", 8*x.ByteSize), x.ByteSize
	case *dwarf.UintType:
		return fmt.Sprintf("uint%d", 8*x.ByteSize), x.ByteSize
	case *dwarf.FloatType:
		return fmt.Sprintf("float%d", 8*x.ByteSize), x.ByteSize
	case *dwarf.EnumType:
		signed := false
		for _, v := range x.Val {
			signed = signed || v.Val < 0
		}
		if signed {
			return fmt.Sprintf("int%d", 8*x.ByteSize), x.ByteSize
		}
		return fmt.Sprintf("uint%d", 8*x.ByteSize), x.ByteSize
	case *dwarf.ArrayType:
		if x.Count < 0 {
			g.fail("flexible array member in %s", hint)
			return "byte", 1
		}
		e, a := g.goType(x.Type, hint)
		return fmt.Sprintf("[%d]%s", x.Count, e), a
	case *dwarf.StructType:
		if x.Kind == "union" {
			return fmt.Sprintf("[%d]byte", x.ByteSize), 1
		}
		name := goTypeName(cName(t))
		if name == "" {
			name = hint
		}
		if prev, ok := g.cNames[name]; ok {
			g.fail("%s: the Go name of C type %q is taken by the mirror of %s", hint, cName(t), prev)
		}
		g.named[s] = name
		g.named[t] = name
		g.cNames[name] = cName(t)
		g.queue = append(g.queue, t)
		return name, g.align(s)
	}
	g.fail("%s: C type %s has no Go mirror", hint, t)
	return "byte", 1
}

// align is the Go alignment of the mirror of s.
func (g *mirrorGen) align(s dwarf.Type) int64 {
	switch x := s.(type) {
	case *dwarf.StructType:
		if x.Kind == "union" {
			return 1
		}
		a := int64(1)
		for _, f := range x.Field {
			if f.BitSize != 0 {
				continue // padding in Go
			}
			fa := g.align(strip(f.Type))
			if u, ok := strip(f.Type).(*dwarf.StructType); ok && f.Name == "" && u.Kind == "union" && len(u.Field) > 0 {
				fa = g.align(strip(u.Field[0].Type))
			}
			a = max(a, fa)
		}
		return a
	case *dwarf.ArrayType:
		return g.align(strip(x.Type))
	case *dwarf.PtrType, *dwarf.FuncType:
		return 8
	case *dwarf.BoolType, *dwarf.CharType, *dwarf.UcharType:
		return 1
	}
	return s.Size()
}

func (g *mirrorGen) fail(format string, args ...any) {
	if g.err == nil {
		g.err = fmt.Errorf("package %s: "+format, append([]any{g.pkg}, args...)...)
	}
}

// writeStruct writes the Go type name for the C type t.
func (g *mirrorGen) writeStruct(name string, t dwarf.Type) {
	if g.done[name] {
		return
	}
	g.done[name] = true
	s := strip(t)
	c := g.cNames[name]
	if c == "" {
		c = "an anonymous struct"
	}
	fmt.Fprintf(&g.out, "// %s mirrors %s (%d bytes).\n", name, c, s.Size())
	st, ok := s.(*dwarf.StructType)
	if !ok || st.Kind == "union" {
		gt, _ := g.goType(s, name)
		if ok { // a union
			gt = fmt.Sprintf("[%d]byte", s.Size())
		}
		fmt.Fprintf(&g.out, "type %s %s\n\n", name, gt)
		return
	}
	fmt.Fprintf(&g.out, "type %s struct {\n", name)
	var at int64 // Go offset reached
	pad := func(to int64) {
		if to > at {
			fmt.Fprintf(&g.out, "\t_ [%d]byte\n", to-at)
			at = to
		}
	}
	var bits []string // bit fields since the last field
	for _, f := range st.Field {
		if f.BitSize != 0 {
			bits = append(bits, fmt.Sprintf("%s:%d", f.Name, f.BitSize))
			continue // padding in Go
		}
		if len(bits) > 0 {
			fmt.Fprintf(&g.out, "\t// bit fields %s in the padding below\n", strings.Join(bits, ", "))
			bits = nil
		}
		ft := f.Type
		fname := f.Name
		size := strip(ft).Size()
		if u, ok := strip(ft).(*dwarf.StructType); ok && fname == "" && u.Kind == "union" && len(u.Field) > 0 {
			// An anonymous union: its first member, then padding.
			ft, fname = u.Field[0].Type, u.Field[0].Name
		}
		if fname == "" {
			g.fail("%s: an unnamed member at offset %d", name, f.ByteOffset)
			continue
		}
		gt, a := g.goType(ft, name+goFieldName(fname))
		pad(f.ByteOffset)
		if at%a != 0 {
			g.fail("%s.%s: at %d in C, misaligned for Go's %s", name, fname, f.ByteOffset, gt)
		}
		fmt.Fprintf(&g.out, "\t%s %s\n", goFieldName(fname), gt)
		at += strip(ft).Size()
		pad(f.ByteOffset + size)
	}
	if len(bits) > 0 {
		fmt.Fprintf(&g.out, "\t// bit fields %s in the padding below\n", strings.Join(bits, ", "))
	}
	pad(st.ByteSize)
	g.out.WriteString("}\n\n")
}

// genMirrorTypes generates pkg/zmirrors.go for every package that owns a
// mirror of a listed C struct or union; root is the repository.
func genMirrorTypes(root, libDir string, pairs []mirrorPair, headers []string) (map[string][]byte, error) {
	_, vars, err := compileProbe(root, libDir, pairs, headers)
	if err != nil {
		return nil, err
	}
	byPkg := map[string][]int{}
	for i, p := range pairs {
		s := strip(vars[probeVar(i)])
		if s == nil {
			return nil, fmt.Errorf("%s: not in the probe's DWARF", p.cType)
		}
		if _, ok := s.(*dwarf.StructType); !ok {
			continue // hand-written (a handle, a scalar)
		}
		pkg := strings.SplitN(p.goType, ".", 2)[0]
		byPkg[pkg] = append(byPkg[pkg], i)
	}
	out := map[string][]byte{}
	for pkg, idx := range byPkg {
		g := &mirrorGen{pkg: pkg, named: map[dwarf.Type]string{}, cNames: map[string]string{}, done: map[string]bool{}}
		var names []string
		types := map[string]dwarf.Type{}
		for _, i := range idx {
			p := pairs[i]
			name := strings.SplitN(p.goType, ".", 2)[1]
			if prev, ok := g.cNames[name]; ok && prev != cSpelling(p.cType) {
				return nil, fmt.Errorf("%s mirrors both %s and %s", p.goType, prev, p.cType)
			}
			t := vars[probeVar(i)]
			g.named[t], g.named[strip(t)] = name, name
			g.cNames[name] = cSpelling(p.cType)
			types[name] = t
			names = append(names, name)
		}
		sort.Strings(names)
		for _, n := range names {
			g.writeStruct(n, types[n])
			for len(g.queue) > 0 {
				t := g.queue[0]
				g.queue = g.queue[1:]
				g.writeStruct(g.named[t], t)
			}
		}
		if g.err != nil {
			return nil, g.err
		}
		var b bytes.Buffer
		b.WriteString("// Code generated by shimgen from the C layouts of emu/include; DO NOT EDIT.\n\n")
		fmt.Fprintf(&b, "package %s\n\n", pkg)
		b.WriteString("// The Go mirrors of the vendor structs libfake casts to this package's\n" +
			"// types (cmd/shimgen/mirrortypes.go says how a C type becomes a Go one).\n\n")
		b.Write(g.out.Bytes())
		src, err := format.Source(b.Bytes())
		if err != nil {
			return nil, fmt.Errorf("%s: %v\n%s", pkg, err, b.Bytes())
		}
		out[pkg] = src
	}
	return out, nil
}
