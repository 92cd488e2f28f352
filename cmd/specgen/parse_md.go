package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// typedef is a scalar, handle, function-pointer or opaque-struct typedef.
type typedef struct {
	Name   string
	Header string
	Decl   string // full C declaration ending in ';'
}

// enumType describes how an enum is declared (typedef and/or tag).
type enumType struct {
	Key     string // enum_type column of the constants table
	Typedef string // "" when only tagged
	Tag     string // "" when anonymous
	Header  string
}

// field is one member of a struct/union layout. An anonymous union is one
// field with Members and no Decl.
type field struct {
	Decl    string
	Name    string
	Offset  int
	Size    int // -1 when the spec gives none
	Members []field
}

// layout is a struct or union with its compiled size/alignment.
type layout struct {
	Kind    string // "struct" or "union"
	Tag     string
	Typedef string
	Header  string
	Size    int
	Align   int
	Fields  []field
}

// cType is how C code names the type (for sizeof).
func (l layout) cType() string {
	if l.Typedef != "" {
		return l.Typedef
	}
	return l.Kind + " " + l.Tag
}

// Decl renders the definition with the spec's field declarations verbatim.
func (l layout) Decl() string {
	var b strings.Builder
	if l.Typedef != "" {
		b.WriteString("typedef ")
	}
	b.WriteString(l.Kind)
	if l.Tag != "" {
		b.WriteString(" " + l.Tag)
	}
	b.WriteString(" {\n")
	for _, f := range l.Fields {
		if f.Members != nil {
			b.WriteString("    union {\n")
			for _, m := range f.Members {
				b.WriteString("        " + m.Decl + "\n")
			}
			b.WriteString("    };\n")
			continue
		}
		b.WriteString("    " + f.Decl + "\n")
		if l.Typedef == "dim3" && f.Name == "z" {
			// The vendor header gives dim3 a constexpr constructor in C++
			// (defaults 1,1,1); it stays standard-layout and 12 bytes.
			b.WriteString("#ifdef __cplusplus\n    constexpr dim3(uint32_t xv = 1U, uint32_t yv = 1U, uint32_t zv = 1U) : x(xv), y(yv), z(zv) {}\n#endif\n")
		}
	}
	b.WriteString("}")
	if l.Typedef != "" {
		b.WriteString(" " + l.Typedef)
	}
	b.WriteString(";")
	return b.String()
}

var (
	reBacktick   = regexp.MustCompile("`([^`]*)`")
	reFieldName  = regexp.MustCompile(`([A-Za-z_]\w*)\s*(\[[^\]]*\]\s*)*;$`)
	reSizeAlign  = regexp.MustCompile(`\*\*sizeof = (\d+), alignof = (\d+)\*\*`)
	reACLLayout  = regexp.MustCompile("^`(typedef )?(struct|union)( \\w+)? \\{\\.\\.\\.\\}( \\w+)?;`.*— (\\S+);")
	reHALTypedef = regexp.MustCompile(`typedef struct (\w+) \{[^}]*\} (\w+);`)
)

// tableCells splits a markdown table row into trimmed cells.
func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") {
		return nil
	}
	parts := strings.Split(strings.Trim(line, "|"), "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func unquote(s string) string {
	if m := reBacktick.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return s
}

// sections splits markdown text at headings of the given level ("## ").
func sections(text, prefix string) map[string][]string {
	out := map[string][]string{}
	cur := ""
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, prefix) {
			cur = strings.TrimPrefix(line, prefix)
			if i := strings.Index(cur, "."); i > 0 {
				cur = cur[:i] // "3. Scalar ..." -> "3"
			}
		}
		out[cur] = append(out[cur], line)
	}
	return out
}

func fieldName(decl string) string {
	m := reFieldName.FindStringSubmatch(strings.TrimSpace(decl))
	if m == nil {
		return ""
	}
	return m[1]
}

// parseLayoutRows reads the field rows of one layout table. Column 0 is the
// index ("3", or "6.rsv2" for members of an anonymous union); column 1 the
// declaration; then offset and size.
func parseLayoutRows(lines []string) ([]field, error) {
	var fields []field
	for _, line := range lines {
		c := tableCells(line)
		if len(c) < 4 || c[0] == "#" || strings.HasPrefix(c[0], "---") {
			continue
		}
		off, err := strconv.Atoi(c[2])
		if err != nil {
			return nil, fmt.Errorf("bad offset in %q", line)
		}
		size := -1
		if s := strings.Fields(c[3]); len(s) > 0 {
			if n, err := strconv.Atoi(s[0]); err == nil {
				size = n
			}
		}
		if strings.Contains(c[1], "anonymous union") {
			fields = append(fields, field{Offset: off, Size: size, Members: []field{}})
			continue
		}
		decl := unquote(c[1])
		f := field{Decl: decl, Name: fieldName(decl), Offset: off, Size: size}
		if f.Name == "" {
			return nil, fmt.Errorf("no field name in %q", decl)
		}
		if strings.Contains(c[0], ".") {
			if len(fields) == 0 || fields[len(fields)-1].Members == nil {
				return nil, fmt.Errorf("member row %q outside an anonymous union", c[0])
			}
			last := &fields[len(fields)-1]
			last.Members = append(last.Members, f)
			continue
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// aclTypes is everything acl-types.md declares.
type aclTypes struct {
	Typedefs []typedef // §3, §4, §5 in order
	Enums    map[string]enumType
	Layouts  []layout
}

func parseACLTypes(specDir string) (*aclTypes, error) {
	data, err := os.ReadFile(filepath.Join(specDir, "acl-types.md"))
	if err != nil {
		return nil, err
	}
	sec := sections(string(data), "## ")
	t := &aclTypes{Enums: map[string]enumType{}}
	for _, line := range sec["3"] {
		c := tableCells(line)
		if len(c) < 3 || !strings.HasPrefix(c[0], "`") {
			continue
		}
		name, under := unquote(c[0]), unquote(c[1])
		decl := "typedef " + under + " " + name + ";"
		if strings.HasSuffix(under, "*") {
			decl = "typedef " + under + name + ";"
		}
		t.Typedefs = append(t.Typedefs, typedef{Name: name, Header: c[2], Decl: decl})
	}
	for _, s := range []string{"4", "5"} {
		for _, line := range sec[s] {
			c := tableCells(line)
			if len(c) < 3 || !strings.HasPrefix(c[0], "`") {
				continue
			}
			t.Typedefs = append(t.Typedefs, typedef{Name: unquote(c[0]), Header: c[2], Decl: unquote(c[1])})
		}
	}
	for _, line := range sec["6"] {
		c := tableCells(line)
		if len(c) < 4 || !strings.HasPrefix(c[0], "`") {
			continue
		}
		name := unquote(c[0])
		e := enumType{Tag: c[1], Header: c[2]}
		if strings.HasPrefix(name, "enum ") {
			e.Tag = strings.Fields(name)[1]
			e.Key = "enum " + e.Tag
		} else {
			e.Typedef, e.Key = name, name
		}
		t.Enums[e.Key] = e
	}
	// §7: "### name", a declaration line with sizeof/alignof, a table.
	var cur *layout
	var rows []string
	flush := func() error {
		if cur == nil {
			return nil
		}
		fs, err := parseLayoutRows(rows)
		if err != nil {
			return fmt.Errorf("layout %s: %w", cur.cType(), err)
		}
		cur.Fields = fs
		t.Layouts = append(t.Layouts, *cur)
		cur, rows = nil, nil
		return nil
	}
	for _, line := range sec["7"] {
		if strings.HasPrefix(line, "### ") {
			if err := flush(); err != nil {
				return nil, err
			}
			continue
		}
		if m := reACLLayout.FindStringSubmatch(line); m != nil {
			sa := reSizeAlign.FindStringSubmatch(line)
			if sa == nil {
				return nil, fmt.Errorf("no sizeof in %q", line)
			}
			cur = &layout{Kind: m[2], Tag: strings.TrimSpace(m[3]), Typedef: strings.TrimSpace(m[4]), Header: m[5]}
			cur.Size, _ = strconv.Atoi(sa[1])
			cur.Align, _ = strconv.Atoi(sa[2])
			continue
		}
		if cur != nil {
			rows = append(rows, line)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return t, nil
}

// halSpec is everything hal-api.md declares.
type halSpec struct {
	Typedefs  []typedef
	EnumTags  map[string]string // typedef name -> enum tag, when the spec names one
	Functions []function
	Layouts   []layout
}

var halAreas = map[string]string{"3": "mem", "4": "device", "5": "dsmi"}

func parseHALSpec(specDir string) (*halSpec, error) {
	data, err := os.ReadFile(filepath.Join(specDir, "hal-api.md"))
	if err != nil {
		return nil, err
	}
	text := string(data)
	sec := sections(text, "## ")
	h := &halSpec{EnumTags: map[string]string{}}
	for _, line := range sec["1"] {
		c := tableCells(line)
		if len(c) < 3 || !strings.HasPrefix(c[0], "`") || !strings.HasSuffix(c[2], ".h") {
			continue // the libraries table
		}
		name, def := unquote(c[0]), c[1]
		var decl string
		switch {
		case strings.Contains(def, "typedef enum"):
			if m := regexp.MustCompile(`typedef enum (\w+)`).FindStringSubmatch(def); m != nil {
				h.EnumTags[name] = m[1]
			}
			continue // the enum itself comes from the constants table
		case strings.HasPrefix(def, "`typedef"):
			decl = unquote(def)
		default:
			if i := strings.Index(def, " ("); i > 0 {
				def = def[:i]
			}
			decl = "typedef " + def + " " + name + ";"
		}
		h.Typedefs = append(h.Typedefs, typedef{Name: name, Header: c[2], Decl: decl})
	}
	for _, s := range []string{"3", "4", "5"} {
		for _, line := range sec[s] {
			c := tableCells(line)
			if len(c) < 4 || !strings.HasPrefix(c[0], "`") {
				continue
			}
			name := unquote(c[0])
			proto, header, note := c[1], c[2], c[3]
			if !strings.Contains(proto, name+"(") && !strings.Contains(proto, "not declared") {
				continue // a constants table, not prototypes
			}
			if !strings.Contains(proto, name+"(") {
				// Not in the public headers: the prototype is in the note.
				for _, m := range reBacktick.FindAllStringSubmatch(note, -1) {
					if strings.Contains(m[1], " "+name+"(") {
						proto = m[1]
					}
				}
				header = "dsmi_common_interface.h"
			}
			f, err := splitPrototype(name, unquote(proto))
			if err != nil {
				return nil, err
			}
			f.Header, f.Area = header, halAreas[s]
			f.Lib = "hal"
			if strings.HasPrefix(name, "dsmi_") {
				f.Lib = "dsmi"
			}
			f.Weak = strings.Contains(note, "ASCEND_HAL_WEAK")
			f.NoExport = strings.Contains(note, "without DLLEXPORT")
			h.Functions = append(h.Functions, f)
		}
	}
	structTags := map[string]string{}
	for _, m := range reHALTypedef.FindAllStringSubmatch(text, -1) {
		structTags[m[2]] = m[1]
	}
	var cur *layout
	var rows []string
	flush := func() error {
		if cur == nil {
			return nil
		}
		fs, err := parseLayoutRows(rows)
		if err != nil {
			return fmt.Errorf("layout %s: %w", cur.cType(), err)
		}
		cur.Fields = fs
		h.Layouts = append(h.Layouts, *cur)
		cur, rows = nil, nil
		return nil
	}
	for _, line := range sec["7"] {
		if strings.HasPrefix(line, "#### ") {
			if err := flush(); err != nil {
				return nil, err
			}
			name := strings.TrimPrefix(line, "#### ")
			cur = &layout{Kind: "struct"}
			if strings.HasPrefix(name, "struct ") {
				cur.Tag = strings.TrimPrefix(name, "struct ")
			} else {
				cur.Typedef, cur.Tag = name, structTags[name]
			}
			continue
		}
		if cur == nil {
			continue
		}
		if sa := reSizeAlign.FindStringSubmatch(line); sa != nil && cur.Size == 0 {
			cur.Header = strings.Fields(line)[0]
			cur.Size, _ = strconv.Atoi(sa[1])
			cur.Align, _ = strconv.Atoi(sa[2])
			continue
		}
		rows = append(rows, line)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if l, ok := internalDSMILayout(text); ok {
		h.Layouts = append(h.Layouts, l)
	}
	return h, nil
}

var (
	reComment  = regexp.MustCompile(`/\*.*?\*/`)
	reOffsets  = regexp.MustCompile(`offsets ([0-9, ]+);`)
	reSizeofNo = regexp.MustCompile(`sizeof (\d+)`)
)

// internalDSMILayout reads struct dsmi_get_memory_info_stru, which the spec
// describes in prose (§5.2) because only an internal driver header has it;
// dsmi_get_memory_info_v2 needs it. Its alignment is not given (Align 0).
func internalDSMILayout(text string) (layout, bool) {
	for _, line := range strings.Split(text, "\n") {
		if !strings.Contains(line, "`struct dsmi_get_memory_info_stru`") {
			continue
		}
		bts := reBacktick.FindAllStringSubmatch(line, -1)
		om, sm := reOffsets.FindStringSubmatch(line), reSizeofNo.FindStringSubmatch(line)
		if len(bts) < 2 || om == nil || sm == nil {
			return layout{}, false
		}
		body := strings.Trim(reComment.ReplaceAllString(bts[1][1], ""), "{} ")
		offs := strings.Split(om[1], ",")
		l := layout{Kind: "struct", Tag: "dsmi_get_memory_info_stru", Header: "dsmi_common_interface.h"}
		l.Size, _ = strconv.Atoi(sm[1])
		for i, d := range strings.Split(body, ";") {
			d = strings.Join(strings.Fields(d), " ")
			if d == "" {
				continue
			}
			if i >= len(offs) {
				return layout{}, false
			}
			off, _ := strconv.Atoi(strings.TrimSpace(offs[i]))
			l.Fields = append(l.Fields, field{Decl: d + ";", Name: fieldName(d + ";"), Offset: off, Size: -1})
		}
		return l, true
	}
	return layout{}, false
}

// splitPrototype cuts "ret name(params);" into its parts.
func splitPrototype(name, proto string) (function, error) {
	i := strings.Index(proto, name+"(")
	j := strings.LastIndex(proto, ")")
	if i < 0 || j < i {
		return function{}, fmt.Errorf("%s: cannot parse prototype %q", name, proto)
	}
	params := strings.TrimSpace(proto[i+len(name)+1 : j])
	if params == "" {
		params = "(empty)"
	}
	return function{Name: name, Return: strings.TrimSpace(proto[:i]), Params: params}, nil
}
