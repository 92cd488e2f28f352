package main

import (
	"fmt"
	"regexp"
	"strings"
)

// A kernel is one `__global__ __aicore__` function definition of a source.
type kernel struct {
	Name   string
	Params []param
	Kind   string // NPUEMU_VECTOR, NPUEMU_CUBE or NPUEMU_MIX
	Coop   bool   // needs all blocks at once (SyncAll, cross-core flags, MIX)
	Line   int

	bodyStart, bodyEnd int // the body's braces in the source
}

// A param is one kernel parameter as written.
type param struct {
	Type string // the declared type, e.g. "GM_ADDR", "AddCustomTilingData"
	Name string
}

// A launch is one `name<<<...>>>` of a source: the byte ranges of
// `name<<<` and of `>>>`.
type launch struct {
	Name               string
	Start, OpenEnd     int // [Start, OpenEnd) is "name<<<"
	CloseStart, CloseE int // [CloseStart, CloseE) is ">>>"
	Line               int
}

// A scan is what the driver needs to know of a source.
type scan struct {
	Kernels  []kernel
	Launches []launch
	Warnings []string
}

// blank returns src with comments, string and character literals replaced
// by spaces (newlines kept), so that byte offsets and lines still match.
func blank(src string) string {
	b := []byte(src)
	n := len(b)
	for i := 0; i < n; {
		c := b[i]
		switch {
		case c == '/' && i+1 < n && b[i+1] == '/':
			for i < n && b[i] != '\n' {
				b[i] = ' '
				i++
			}
		case c == '/' && i+1 < n && b[i+1] == '*':
			b[i], b[i+1] = ' ', ' '
			i += 2
			for i < n && !(b[i] == '*' && i+1 < n && b[i+1] == '/') {
				if b[i] != '\n' {
					b[i] = ' '
				}
				i++
			}
			if i < n {
				b[i], b[i+1] = ' ', ' '
				i += 2
			}
		case c == 'R' && i+1 < n && b[i+1] == '"' && (i == 0 || !isIdent(b[i-1])):
			// raw string R"delim( ... )delim"
			j := i + 2
			for j < n && b[j] != '(' {
				j++
			}
			delim := ")" + string(b[i+2:j]) + "\""
			end := strings.Index(string(b[j:]), delim)
			stop := n
			if end >= 0 {
				stop = j + end + len(delim)
			}
			for k := i + 1; k < stop; k++ {
				if b[k] != '\n' {
					b[k] = ' '
				}
			}
			i = stop
		case c == '"' || c == '\'':
			// a ' between digits is a C++14 digit separator
			if c == '\'' && i > 0 && isDigitSep(b, i) {
				i++
				continue
			}
			q := c
			i++
			for i < n && b[i] != q && b[i] != '\n' {
				if b[i] == '\\' && i+1 < n {
					b[i] = ' '
					i++
				}
				b[i] = ' '
				i++
			}
			if i < n {
				i++
			}
		default:
			i++
		}
	}
	return string(b)
}

func isDigitSep(b []byte, i int) bool {
	return i > 0 && i+1 < len(b) && isHex(b[i-1]) && isHex(b[i+1]) && numberBefore(b, i)
}

// numberBefore reports whether the identifier-like run ending at i-1 starts
// with a digit (so 1'000 is a number, while u8'x' is a literal).
func numberBefore(b []byte, i int) bool {
	j := i - 1
	for j >= 0 && (isIdent(b[j]) || b[j] == '\'') {
		j--
	}
	return b[j+1] >= '0' && b[j+1] <= '9'
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

var (
	globalRe   = regexp.MustCompile(`\b__global__\b`)
	launchRe   = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)\s*<<<`)
	taskTypeRe = regexp.MustCompile(`KERNEL_TASK_TYPE(?:_DEFAULT)?\s*\(([^)]*)\)`)
	matmulRe   = regexp.MustCompile(`\bREGIST_MATMUL_OBJ\b|\bMatmulImpl\b|\bAscendC::Matmul\s*<|\bMatmul\s*<`)
	matmulInc  = regexp.MustCompile(`(?m)^\s*#\s*include\s*[<"](?:lib/)?matmul_intf\.h[">]`)
	coopRe     = regexp.MustCompile(`\bSyncAll\b|\bCrossCore[A-Za-z]*\b`)
)

// scanSource finds the kernels and launches of a source.
func scanSource(src string) (*scan, error) {
	bl := blank(src)
	s := &scan{}
	fileMix := matmulRe.MatchString(bl) || matmulInc.MatchString(src)
	// SyncAll and cross-core flags are often called from a class the kernel
	// uses, so the whole file counts
	fileCoop := coopRe.MatchString(bl)
	for _, m := range globalRe.FindAllStringIndex(bl, -1) {
		k, ok, err := kernelAt(bl, m[0])
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if k.Name == "" {
			s.Warnings = append(s.Warnings, fmt.Sprintf("line %d: a templated __global__ kernel gets no launch entry (instantiate it in a non-template kernel)", k.Line))
			continue
		}
		s.Kernels = append(s.Kernels, k)
	}
	fileKind := outsideKind(bl, s.Kernels)
	for i := range s.Kernels {
		k := &s.Kernels[i]
		if k.Kind == "" {
			k.Kind = fileKind
		}
		if fileMix && k.Kind == "" {
			k.Kind = "NPUEMU_MIX"
		}
		if k.Kind == "" {
			k.Kind = "NPUEMU_VECTOR"
		}
		if k.Kind == "NPUEMU_MIX" || fileCoop {
			k.Coop = true
		}
	}
	for _, m := range launchRe.FindAllStringSubmatchIndex(bl, -1) {
		l := launch{Name: bl[m[2]:m[3]], Start: m[0], OpenEnd: m[1], Line: lineOf(bl, m[0])}
		c := strings.Index(bl[m[1]:], ">>>")
		if c < 0 {
			return nil, fmt.Errorf("line %d: %s<<< without its >>>", l.Line, l.Name)
		}
		l.CloseStart = m[1] + c
		l.CloseE = l.CloseStart + 3
		s.Launches = append(s.Launches, l)
	}
	return s, nil
}

// outsideKind is the kind of the task types written outside every kernel
// body (a helper, a project macro), when they all agree; "" otherwise.
func outsideKind(bl string, ks []kernel) string {
	kind := ""
	n := 0
outer:
	for _, m := range taskTypeRe.FindAllStringSubmatchIndex(bl, -1) {
		for _, k := range ks {
			if m[0] > k.bodyStart && m[0] < k.bodyEnd {
				continue outer
			}
		}
		kk := kindOf(bl[m[2]:m[3]])
		if n > 0 && kk != kind {
			return ""
		}
		kind = kk
		n++
	}
	return kind
}

func lineOf(s string, off int) int { return strings.Count(s[:off], "\n") + 1 }

// kernelAt parses the declaration around the __global__ at off. ok is false
// for a declaration without body (a prototype) or a __global__ that is not
// an __aicore__ function.
func kernelAt(bl string, off int) (kernel, bool, error) {
	// the declaration starts after the previous ; } { or preprocessor line
	start := off
	for start > 0 {
		c := bl[start-1]
		if c == ';' || c == '}' || c == '{' {
			break
		}
		if c == '\n' {
			// a preprocessor line ends a declaration
			ls := strings.LastIndexByte(bl[:start-1], '\n') + 1
			if strings.HasPrefix(strings.TrimSpace(bl[ls:start-1]), "#") {
				break
			}
		}
		start--
	}
	open := strings.IndexByte(bl[off:], '(')
	if open < 0 {
		return kernel{}, false, nil
	}
	open += off
	head := bl[start:open]
	if !strings.Contains(head, "__aicore__") {
		return kernel{}, false, nil
	}
	k := kernel{Line: lineOf(bl, off)}
	name := strings.TrimRightFunc(head, isSpace)
	i := len(name)
	for i > 0 && isIdent(name[i-1]) {
		i--
	}
	k.Name = name[i:]
	if k.Name == "" {
		return kernel{}, false, fmt.Errorf("line %d: cannot read the name of this __global__ function", k.Line)
	}
	closeP, err := matchClose(bl, open, '(', ')')
	if err != nil {
		return kernel{}, false, fmt.Errorf("line %d: kernel %s: %v", k.Line, k.Name, err)
	}
	// after the parameters: qualifiers, then { for a definition
	j := closeP + 1
	for j < len(bl) && bl[j] != '{' && bl[j] != ';' {
		j++
	}
	if j >= len(bl) || bl[j] == ';' {
		return kernel{}, false, nil
	}
	body, err := matchClose(bl, j, '{', '}')
	if err != nil {
		return kernel{}, false, fmt.Errorf("line %d: kernel %s: %v", k.Line, k.Name, err)
	}
	if regexp.MustCompile(`\btemplate\s*<`).MatchString(head) {
		k.Name = ""
		return k, true, nil
	}
	k.Params, err = splitParams(bl[open+1 : closeP])
	if err != nil {
		return kernel{}, false, fmt.Errorf("line %d: kernel %s: %v", k.Line, k.Name, err)
	}
	text := bl[j:body]
	if m := taskTypeRe.FindStringSubmatch(text); m != nil {
		k.Kind = kindOf(m[1])
	}
	k.bodyStart, k.bodyEnd = j, body
	return k, true, nil
}

// kindOf maps a KERNEL_TYPE_* name to the npuemu kernel kind.
func kindOf(t string) string {
	t = strings.TrimSpace(t)
	switch {
	case strings.Contains(t, "AIV_ONLY"):
		return "NPUEMU_VECTOR"
	case strings.Contains(t, "AIC_ONLY"):
		return "NPUEMU_CUBE"
	case strings.Contains(t, "MIX"):
		return "NPUEMU_MIX"
	}
	return ""
}

func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

// matchClose returns the index of the bracket closing the one at open.
func matchClose(s string, open int, o, c byte) (int, error) {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case o:
			depth++
		case c:
			depth--
			if depth == 0 {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("unbalanced %c", o)
}

// splitParams splits a parameter list at its top-level commas.
func splitParams(list string) ([]param, error) {
	list = strings.TrimSpace(list)
	if list == "" || list == "void" {
		return nil, nil
	}
	var parts []string
	depth, last := 0, 0
	for i := 0; i < len(list); i++ {
		switch list[i] {
		case '(', '<', '[':
			depth++
		case ')', '>', ']':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, list[last:i])
				last = i + 1
			}
		}
	}
	parts = append(parts, list[last:])
	var ps []param
	for _, p := range parts {
		p = strings.Join(strings.Fields(p), " ")
		if eq := strings.IndexByte(p, '='); eq >= 0 {
			p = strings.TrimSpace(p[:eq])
		}
		i := len(p)
		for i > 0 && isIdent(p[i-1]) {
			i--
		}
		name, typ := p[i:], strings.TrimSpace(p[:i])
		if name == "" || typ == "" || (name[0] >= '0' && name[0] <= '9') {
			return nil, fmt.Errorf("parameter %q: want a type and a name", p)
		}
		ps = append(ps, param{Type: typ, Name: name})
	}
	return ps, nil
}

// scalarTypes are the parameter types an aclrtlaunch_<kernel> function
// takes by value; every other type is passed as a pointer (void*): pointers
// and GM_ADDR as they are, structures as the address of a host copy.
var scalarTypes = map[string]bool{
	"bool": true, "char": true, "signed char": true, "unsigned char": true,
	"short": true, "unsigned short": true, "int": true, "unsigned": true, "unsigned int": true,
	"long": true, "unsigned long": true, "long long": true, "unsigned long long": true,
	"float": true, "double": true, "size_t": true,
	"int8_t": true, "uint8_t": true, "int16_t": true, "uint16_t": true,
	"int32_t": true, "uint32_t": true, "int64_t": true, "uint64_t": true,
}

// launchType is the C type of a parameter in aclrtlaunch_<kernel>.
func launchType(t string) string {
	t = strings.TrimPrefix(strings.TrimSpace(t), "const ")
	t = strings.TrimPrefix(t, "std::")
	if scalarTypes[t] {
		return t
	}
	return "void*"
}
