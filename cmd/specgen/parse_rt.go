package main

import (
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// rtSpec is what rt-functions.tsv, rt-types.md and rt-constants.tsv
// declare for the runtime's rt* layer (libruntime.so).
type rtSpec struct {
	Funcs    []function // priority A (what the acl layer and sharing layers use)
	Typedefs []typedef  // §1..§4: scalars, handles, aliases, callbacks
	Enums    []rtEnum   // §5
	Layouts  []layout   // §6, named records only (nested unions inlined)
	Consts   []constant // rt-constants.tsv (#defines); the codes are in acl/error_codes/rt_error_codes.h
	Unknown  map[string]bool
}

// rtEnum is one enum of §5.
type rtEnum struct {
	Tag      string
	Typedefs []string
	Members  []constant
	Header   string
}

var (
	reRTHeading = regexp.MustCompile("^### (struct|union|enum) `([^`]*)`(?: \\(typedef: (.*)\\))?")
	reRTSize    = regexp.MustCompile(`sizeof (\d+)(?:, alignof (\d+))?`)
	reCanonical = regexp.MustCompile(`\s\[.*\]$`)
	reArraySfx  = regexp.MustCompile(`^(.*?)((?:\[\d+\])+)$`)
)

// parseRTFunctions reads the priority-A rows of rt-functions.tsv.
func parseRTFunctions(specDir string) ([]function, error) {
	rows, err := readTSV(filepath.Join(specDir, "rt-functions.tsv"), 10)
	if err != nil {
		return nil, err
	}
	var fns []function
	seen := map[string]bool{}
	for _, r := range rows {
		if (r[8] != "A" && !rtExtraFunctions[r[3]]) || seen[r[3]] {
			continue
		}
		seen[r[3]] = true
		dep := ""
		if r[5] == "yes" {
			dep = "deprecated"
		}
		fns = append(fns, function{
			Name: r[3], Lib: "rt", Header: "runtime/rt.h", Area: r[1],
			Return: strings.TrimSpace(r[2]), Params: strings.TrimSpace(r[4]), Deprecated: dep,
		})
	}
	return fns, nil
}

// rtExtraFunctions are priority-B rows exported with the priority-A ones:
// the registration side of the launches NPU-sharing layers hook. HAMi's
// vNPU limiter hooks rtKernelLaunchWithFlagV2 (a stub function registered
// with rtDevBinaryRegister + rtFunctionRegister) and
// rtKernelLaunchWithHandleV2 (a tiling-key entry of a binary registered
// with rtRegisterAllKernel); without these a program cannot make the
// launches the hooks are written for. rtKernelLaunch,
// rtKernelLaunchWithFlag and rtKernelLaunchWithHandle are the same
// launches in their older forms (rt/kernel_launch_stub.go).
var rtExtraFunctions = map[string]bool{
	"rtDevBinaryRegister":      true,
	"rtDevBinaryUnRegister":    true,
	"rtFunctionRegister":       true,
	"rtRegisterAllKernel":      true,
	"rtKernelLaunch":           true,
	"rtKernelLaunchWithFlag":   true,
	"rtKernelLaunchWithHandle": true,
}

// rtExtraLayouts are the records of rtExtraFunctions that rt-types.md (the
// priority-A types) does not list: rtDevBinary_t of
// pkg_inc/runtime/runtime/kernel.h (magic, version, data, length).
var rtExtraLayouts = []layout{{
	Kind: "struct", Tag: "tagRtDevBinary", Header: "pkg_inc/runtime/runtime/kernel.h", Size: 24, Align: 8,
	Fields: []field{
		{Decl: "uint32_t magic;", Name: "magic", Offset: 0, Size: 4},
		{Decl: "uint32_t version;", Name: "version", Offset: 4, Size: 4},
		{Decl: "const void *data;", Name: "data", Offset: 8, Size: 8},
		{Decl: "uint64_t length;", Name: "length", Offset: 16, Size: 8},
	},
}}

// parseRTSpec reads the whole rt-layer specification.
func parseRTSpec(specDir string) (*rtSpec, error) {
	fns, err := parseRTFunctions(specDir)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(specDir, "rt-types.md"))
	if err != nil {
		return nil, err
	}
	sec := sections(string(data), "## ")
	s := &rtSpec{Funcs: fns, Unknown: map[string]bool{}}
	s.Typedefs = append(s.Typedefs,
		typedef{Name: "char_t", Decl: "typedef char char_t;"},
		typedef{Name: "float32_t", Decl: "typedef float float32_t;"},
		typedef{Name: "rtError_t", Decl: "typedef int32_t rtError_t;"})
	for _, k := range []string{"2", "3"} {
		for _, line := range sec[k] {
			c := tableCells(line)
			if len(c) < 3 || !strings.HasPrefix(c[0], "`") {
				continue
			}
			name, under := unquote(c[0]), unquote(c[1])
			if name == "rtError_t" {
				continue
			}
			decl := "typedef " + under + " " + name + ";"
			if strings.HasSuffix(under, "*") {
				decl = "typedef " + under + name + ";"
			}
			s.Typedefs = append(s.Typedefs, typedef{Name: name, Decl: decl})
		}
	}
	for _, line := range sec["4"] {
		c := tableCells(line)
		if len(c) < 3 || !strings.HasPrefix(c[0], "`") {
			continue
		}
		name, sig := unquote(c[0]), unquote(c[1])
		i := strings.Index(sig, "(*)")
		if i < 0 {
			return nil, fmt.Errorf("rt-types.md: callback %s: no (*) in %q", name, sig)
		}
		s.Typedefs = append(s.Typedefs, typedef{Name: name, Decl: "typedef " + sig[:i] + "(*" + name + ")" + sig[i+3:] + ";"})
	}
	if err := s.parseEnums(sec["5"]); err != nil {
		return nil, err
	}
	if err := s.parseLayouts(sec["6"]); err != nil {
		return nil, err
	}
	s.Layouts = append(s.Layouts, rtExtraLayouts...)
	s.Typedefs = append(s.Typedefs, typedef{Name: "rtDevBinary_t", Decl: "typedef struct tagRtDevBinary rtDevBinary_t;"})
	rows, err := readTSV(filepath.Join(specDir, "rt-constants.tsv"), 5)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		s.Consts = append(s.Consts, constant{Header: r[0], Kind: "#define", Name: r[1], Value: r[2], Hex: r[3], AsWritten: r[4], CType: defineType(r[2], r[4])})
	}
	return s, nil
}

// defineType is the C type of a macro's value: unsigned when written so or
// when it does not fit an int.
func defineType(value, written string) string {
	v, err := strconv.ParseInt(value, 10, 64)
	switch {
	case err != nil || v > 0xFFFFFFFF:
		return "unsigned long long"
	case strings.Contains(written, "UL"):
		return "unsigned long"
	case strings.ContainsAny(written, "Uu") || v > 0x7FFFFFFF:
		return "unsigned int"
	}
	return "int"
}

func (s *rtSpec) parseEnums(lines []string) error {
	var cur *rtEnum
	flush := func() {
		if cur != nil {
			s.Enums = append(s.Enums, *cur)
			cur = nil
		}
	}
	for _, line := range lines {
		if m := reRTHeading.FindStringSubmatch(line); m != nil {
			flush()
			cur = &rtEnum{Tag: m[2], Typedefs: splitTypedefs(m[3])}
			continue
		}
		c := tableCells(line)
		if cur == nil || len(c) < 2 || !strings.HasPrefix(c[0], "`") {
			continue
		}
		name, val := unquote(c[0]), c[1]
		ctype := "int (enumerator)"
		if v, err := strconv.ParseInt(val, 10, 64); err == nil && v > 0x7FFFFFFF {
			ctype = "unsigned int (enumerator)"
		}
		v, _ := strconv.ParseInt(val, 10, 64)
		cur.Members = append(cur.Members, constant{Kind: "enum", EnumType: cur.Tag, Name: name, Value: val, Hex: fmt.Sprintf("0x%X", v), CType: ctype})
	}
	flush()
	return nil
}

func splitTypedefs(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = unquote(strings.TrimSpace(p)); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// rawLayout is one §6 record before nested unnamed records are inlined.
type rawLayout struct {
	layout
	typedefs []string
	rows     [][4]string // offset, size, name, type
}

func (s *rtSpec) parseLayouts(lines []string) error {
	var all []*rawLayout
	var cur *rawLayout
	for _, line := range lines {
		if m := reRTHeading.FindStringSubmatch(line); m != nil {
			cur = &rawLayout{layout: layout{Kind: m[1], Tag: m[2]}, typedefs: splitTypedefs(m[3])}
			all = append(all, cur)
			continue
		}
		if cur == nil {
			continue
		}
		if m := reRTSize.FindStringSubmatch(line); m != nil && !strings.HasPrefix(line, "|") && cur.Size == 0 {
			cur.Size, _ = strconv.Atoi(m[1])
			cur.Align, _ = strconv.Atoi(m[2])
			continue
		}
		c := tableCells(line)
		if len(c) < 4 || !strings.HasPrefix(c[2], "`") {
			continue
		}
		cur.rows = append(cur.rows, [4]string{c[0], c[1], unquote(c[2]), unquote(c[3])})
	}
	nested := map[string]*rawLayout{}
	for _, l := range all {
		if strings.Contains(l.Tag, "::") {
			nested[strings.SplitN(l.Tag, "::", 2)[0]] = l
		}
	}
	for _, l := range all {
		if strings.Contains(l.Tag, "::") {
			continue
		}
		fs, err := s.fields(l, nested)
		if err != nil {
			return fmt.Errorf("rt-types.md %s %s: %w", l.Kind, l.Tag, err)
		}
		l.Fields = fs
		// The record is declared by its tag; the typedef names are separate
		// declarations (§3 lists them, with any the heading adds).
		s.Layouts = append(s.Layouts, l.layout)
		for _, td := range l.typedefs {
			s.Typedefs = append(s.Typedefs, typedef{Name: td, Decl: "typedef " + l.Kind + " " + l.Tag + " " + td + ";"})
		}
	}
	return nil
}

// fields turns the rows of l into member declarations. A type the spec does
// not define (a member of a nested union the rt layer never reads) becomes a
// byte array of its size.
func (s *rtSpec) fields(l *rawLayout, nested map[string]*rawLayout) ([]field, error) {
	var fs []field
	for _, r := range l.rows {
		off, err := strconv.Atoi(r[0])
		if err != nil {
			return nil, fmt.Errorf("bad offset %q", r[0])
		}
		size, _ := strconv.Atoi(r[1])
		name, typ := r[2], reCanonical.ReplaceAllString(r[3], "")
		if strings.HasPrefix(typ, "(unnamed union") {
			n := nested[l.Tag]
			if n == nil {
				return nil, fmt.Errorf("field %s: no nested union", name)
			}
			var ms []string
			for _, nr := range n.rows {
				ms = append(ms, s.memberDecl(nr[2], reCanonical.ReplaceAllString(nr[3], ""), nr[1]))
			}
			attr := ""
			if n.Align > 1 {
				attr = fmt.Sprintf(" __attribute__((aligned(%d)))", n.Align)
			}
			decl := "union" + attr + " {\n        " + strings.Join(ms, "\n        ") + "\n    } " + name + ";"
			fs = append(fs, field{Decl: decl, Name: name, Offset: off, Size: size})
			continue
		}
		fs = append(fs, field{Decl: s.memberDecl(name, typ, r[1]), Name: name, Offset: off, Size: size})
	}
	// A member the spec does not list (rtTaskParams ends in one) is kept as
	// reserved bytes so the size stays the vendor's.
	if n := len(fs); n > 0 && l.Align > 0 && l.Kind == "struct" {
		end := fs[n-1].Offset + fs[n-1].Size
		if tail := l.Size - (end+l.Align-1)/l.Align*l.Align; tail > 0 {
			fs = append(fs, field{Decl: fmt.Sprintf("uint8_t npuUnlisted[%d]; /* bytes the spec lists no member for */", l.Size-end), Name: "npuUnlisted", Offset: end, Size: l.Size - end})
		}
	}
	return fs, nil
}

var unknownRTTypes = map[string]bool{
	"rtFftsPlusExDetailInfo_t": true, "rtAicoreExDetailInfo_t": true, "rtAicpuExDetailInfo_t": true,
	"rtUbExDetailInfo_t": true, "rtMultiCCUExDetailInfo_t": true, "rtFusionExDetailInfo_t": true,
	"rtDropoutBitMaskInfo_t": true, "rtUniformDisInfo_t": true, "rtNormalDisInfo_t": true,
}

func (s *rtSpec) memberDecl(name, typ, size string) string {
	if unknownRTTypes[typ] {
		s.Unknown[typ] = true
		return fmt.Sprintf("uint8_t %s[%s]; /* %s: layout not in the spec */", name, size, typ)
	}
	if m := reArraySfx.FindStringSubmatch(typ); m != nil {
		return strings.TrimSpace(m[1]) + " " + name + m[2] + ";"
	}
	if strings.HasSuffix(typ, "*") {
		return typ + name + ";"
	}
	return typ + " " + name + ";"
}

// drvMapping is one row of rt-types.md §8.4: how the runtime turns a driver
// code into the external code its rt* function returns.
type drvMapping struct{ Drv, Ext string }

var reExtCode = regexp.MustCompile("`(ACL_[A-Z0-9_]+)`")

// parseDrvMap reads §8.4 (the last row, "any other", is the fallback and
// has no driver code).
func parseDrvMap(specDir string) ([]drvMapping, string, error) {
	data, err := os.ReadFile(filepath.Join(specDir, "rt-types.md"))
	if err != nil {
		return nil, "", err
	}
	var out []drvMapping
	fallback := ""
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "### ") {
			in = strings.HasPrefix(line, "### 8.4")
			continue
		}
		c := tableCells(line)
		if !in || len(c) < 5 {
			continue
		}
		m := reExtCode.FindStringSubmatch(c[4])
		if m == nil {
			continue
		}
		if strings.HasPrefix(c[0], "any other") {
			fallback = m[1]
			continue
		}
		if d := unquote(c[0]); strings.HasPrefix(d, "DRV_ERROR_") {
			out = append(out, drvMapping{Drv: d, Ext: m[1]})
		}
	}
	if fallback == "" || len(out) == 0 {
		return nil, "", fmt.Errorf("rt-types.md §8.4: driver code table not found")
	}
	return out, fallback, nil
}

// genDrvMap renders abi/zrterr.go.
func genDrvMap(rows []drvMapping, fallback string) (string, error) {
	var b strings.Builder
	b.WriteString(genLineGo + "\n\npackage abi\n\nimport \"sync\"\n\n")
	b.WriteString("// rtCodeOfDrv is rt-types.md §8.4: the external code an rt* function\n// returns for a driver code (through the runtime's internal code); made on first use.\nvar rtCodeOfDrv = sync.OnceValue(func() map[DrvCode]Code {\n\treturn map[DrvCode]Code{\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "\t%s: %s,\n", r.Drv, r.Ext)
	}
	b.WriteString("}\n})\n\n")
	fmt.Fprintf(&b, "// rtCodeOfOtherDrv is the code of every driver code not in rtCodeOfDrv.\nconst rtCodeOfOtherDrv = %s\n", fallback)
	src, err := format.Source([]byte(b.String()))
	return string(src), err
}
