package main

import (
	"bytes"
	"fmt"
	"go/format"
	"regexp"
	"strings"
)

var reTagTypedef = regexp.MustCompile(`^typedef (struct|union|enum) (\w+) (\w+);$`)

// rtRecordAttrs are attributes the vendor's records carry that the spec
// states only through their layout (alignof 1 with wider members: packed).
var rtRecordAttrs = map[string]string{
	"tagBarrierCmoInfo":  "__attribute__((packed))",
	"tagBarrierTaskInfo": "__attribute__((packed))",
}

// genRTHeaders renders runtime/rt.h: the runtime's rt* layer (libruntime.so),
// every priority-A function of rt-functions.tsv with the types of
// rt-types.md and the macros of rt-constants.tsv. The vendor spreads these
// over pkg_inc/runtime/{rt_external_*.h,runtime/*.h,runtime/rts/*.h}; one
// header holds them here.
func genRTHeaders(s *rtSpec) (map[string]string, error) {
	h := &cheader{
		Path:  "runtime/rt.h",
		Guard: "NPUEMU_RUNTIME_RT_H",
		Comment: "The CANN runtime's rt* layer (libruntime.so): the priority-A functions of\n" +
			"rt-functions.tsv (those the aclrt and aclmdlRI functions call, and those\n" +
			"NPU-sharing layers hook or call) with the types of rt-types.md and the\n" +
			"macros of rt-constants.tsv. The vendor installs them as several headers\n" +
			"under pkg_inc/runtime/; npuemu has this one. rt* functions return the\n" +
			"ACL_ERROR_RT_* codes of acl/error_codes/rt_error_codes.h. The vendor marks\n" +
			"most of them deprecated; this header does not (docs/stack.md).",
		Includes: []string{"<stdbool.h>", "<stddef.h>", "<stdint.h>", "\"acl/error_codes/rt_error_codes.h\""},
	}
	h.Prelude = "#ifndef RTS_API\n#define RTS_API\n#endif"
	for _, c := range s.Consts {
		lit, err := c.literal()
		if err != nil {
			return nil, err
		}
		h.Defines = append(h.Defines, fmt.Sprintf("#ifndef %s\n#define %s %s\n#endif", c.Name, c.Name, lit))
	}
	// A typedef of a record or enum the header defines is declared right
	// after it, in one declaration: a tag and a typedef may share a name.
	defined := map[string]bool{}
	for _, e := range s.Enums {
		defined[e.Tag] = true
	}
	for _, l := range s.Layouts {
		defined[l.Tag] = true
	}
	attached := map[string][]string{} // tag -> typedef names
	seen := map[string]bool{}
	for _, t := range s.Typedefs {
		if seen[t.Name] {
			continue
		}
		seen[t.Name] = true
		if m := reTagTypedef.FindStringSubmatch(t.Decl); m != nil && defined[m[2]] {
			attached[m[2]] = append(attached[m[2]], t.Name)
			continue
		}
		h.Types = append(h.Types, cdecl{Provides: []string{t.Name}, Text: t.Decl})
	}
	withTypedefs := func(kind, tag, txt string) cdecl {
		d := cdecl{Provides: []string{tag}, Text: txt}
		for _, td := range attached[tag] {
			d.Provides = append(d.Provides, td)
			d.Text += fmt.Sprintf("\ntypedef %s %s %s;", kind, tag, td)
		}
		return d
	}
	for _, e := range s.Enums {
		h.Types = append(h.Types, withTypedefs("enum", e.Tag, enumDecl("", e.Tag, e.Members)))
	}
	for _, l := range s.Layouts {
		txt := l.Decl()
		if a := rtRecordAttrs[l.Tag]; a != "" {
			txt = strings.TrimSuffix(txt, ";") + " " + a + ";"
		}
		h.Types = append(h.Types, withTypedefs(l.Kind, l.Tag, txt))
	}
	h.Consts = []string{"static const int32_t RT_ERROR_NONE = 0;"}
	for _, f := range s.Funcs {
		h.Funcs = append(h.Funcs, fmt.Sprintf("RTS_API %s%s(%s);", declHead(f.Return), f.Name, f.cParams()))
	}
	txt, err := h.render()
	if err != nil {
		return nil, err
	}
	return map[string]string{h.Path: txt}, nil
}

// genRTABICheck renders abi/testdata/zabi_rt.c: macro values, enumerator
// values, record layouts and prototypes of runtime/rt.h against the spec.
func genRTABICheck(s *rtSpec) (string, error) {
	consts := append([]constant(nil), s.Consts...)
	for _, e := range s.Enums {
		consts = append(consts, e.Members...)
	}
	return abiCheckFile("runtime rt* header", []string{"runtime/rt.h"}, consts, s.Layouts, s.Funcs)
}

// genRTGoConsts renders abi/zrt.go: the macros and enumerators of
// runtime/rt.h, read from the header and valued by a compiled probe like the
// ACL and HAL constants. A name the ACL or HAL headers already define (with
// the same value) is left to them.
func genRTGoConsts(root string, have map[string]string) (map[string]string, error) {
	cs, err := scanHeader(root, "runtime/rt.h")
	if err != nil {
		return nil, err
	}
	if err := probe(root, []string{"runtime/rt.h"}, cs); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(genLineGo + "\n\npackage abi\n\n// Constants of runtime/rt.h (the runtime's rt* layer).\nconst (\n")
	for _, c := range cs {
		if v, ok := have[c.Name]; ok {
			if v != c.Value {
				return nil, fmt.Errorf("runtime/rt.h: %s = %s, but another header says %s", c.Name, c.Value, v)
			}
			continue
		}
		fmt.Fprintf(&b, "\t%s = %s\n", c.Name, c.Value)
	}
	b.WriteString(")\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("rt constants: %w", err)
	}
	return map[string]string{"abi/zrt.go": string(src)}, nil
}

var reGoConst = regexp.MustCompile(`(?m)^\t([A-Za-z_]\w*)(?:\s+[A-Za-z]\w*)?\s+=\s+(-?\d+)$`)

// goConstValues reads NAME = value pairs back from rendered z*.go files.
func goConstValues(files map[string]string) map[string]string {
	have := map[string]string{}
	for _, src := range files {
		for _, m := range reGoConst.FindAllStringSubmatch(src, -1) {
			have[m[1]] = m[2]
		}
	}
	return have
}
