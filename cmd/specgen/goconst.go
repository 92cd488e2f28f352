package main

import (
	"bufio"
	"bytes"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// hconst is a constant found by reading one of our headers.
type hconst struct {
	Name   string
	Header string // relative to emu/include
	Kind   string // "define", "enum", "static"
	Enum   string // typedef or tag of the enclosing enum
	Body   string // right-hand side as written
	Value  string // decimal, filled in by the probe
}

var (
	reDefine    = regexp.MustCompile(`^#define ([A-Za-z_]\w*) (.+)$`)
	reEnumStart = regexp.MustCompile(`^(typedef )?enum( [A-Za-z_]\w*)? \{$`)
	reEnumEnd   = regexp.MustCompile(`^\}( [A-Za-z_]\w*)?;$`)
	reEnumItem  = regexp.MustCompile(`^\s+([A-Za-z_]\w*) = ([^,]+),?$`)
	reStatic    = regexp.MustCompile(`^static const (?:int|uint32_t) ([A-Za-z_]\w*) = (.+);$`)
)

// scanHeader lists the integer constants a header defines: object-like
// macros (attribute macros excluded), enumerators and static consts.
func scanHeader(root, rel string) ([]hconst, error) {
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		return nil, err
	}
	var out, pending []hconst
	inEnum := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case inEnum:
			if m := reEnumEnd.FindStringSubmatch(line); m != nil {
				name := strings.TrimSpace(m[1])
				for i := range pending {
					if name != "" {
						pending[i].Enum = name
					}
				}
				out = append(out, pending...)
				pending, inEnum = nil, false
			} else if m := reEnumItem.FindStringSubmatch(line); m != nil {
				pending = append(pending, hconst{Name: m[1], Header: rel, Kind: "enum", Body: m[2]})
			}
		case reEnumStart.MatchString(line):
			inEnum = true
			pending = nil
		default:
			if m := reDefine.FindStringSubmatch(line); m != nil && !strings.Contains(m[2], "__attribute__") {
				out = append(out, hconst{Name: m[1], Header: rel, Kind: "define", Body: strings.TrimSpace(m[2])})
			} else if m := reStatic.FindStringSubmatch(line); m != nil {
				out = append(out, hconst{Name: m[1], Header: rel, Kind: "static", Body: m[2]})
			}
		}
	}
	return out, sc.Err()
}

func listHeaders(root, sub string) ([]string, error) {
	var hs []string
	err := filepath.WalkDir(filepath.Join(root, sub), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".h") {
			rel, _ := filepath.Rel(root, p)
			hs = append(hs, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(hs)
	return hs, err
}

// probe compiles and runs a C program that prints every constant's value.
func probe(root string, includes []string, cs []hconst) error {
	dir, err := os.MkdirTemp("", "specgen-probe")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var b strings.Builder
	b.WriteString("#include <stdio.h>\n")
	for _, inc := range includes {
		fmt.Fprintf(&b, "#include \"%s\"\n", inc)
	}
	b.WriteString(`#define P(x) do { if ((x) < 0) printf("%lld\n", (long long)(x)); else printf("%llu\n", (unsigned long long)(x)); } while (0)` + "\n")
	b.WriteString("int main(void) {\n")
	for _, c := range cs {
		fmt.Fprintf(&b, "    P(%s);\n", c.Name)
	}
	b.WriteString("    return 0;\n}\n")
	src := filepath.Join(dir, "probe.c")
	bin := filepath.Join(dir, "probe")
	if err := os.WriteFile(src, []byte(b.String()), 0o644); err != nil {
		return err
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	cmd := exec.Command(cc, "-std=c11", "-w", "-I", root, "-I", filepath.Join(root, "driver"), "-o", bin, src)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("compiling the constant probe: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		return fmt.Errorf("running the constant probe: %v", err)
	}
	vals := strings.Fields(string(out))
	if len(vals) != len(cs) {
		return fmt.Errorf("probe printed %d values for %d constants", len(vals), len(cs))
	}
	for i := range cs {
		cs[i].Value = vals[i]
	}
	return nil
}

// genGoConsts reads the headers under root (emu/include) and renders
// abi/zacl.go and abi/zhal.go.
func genGoConsts(root string) (map[string]string, error) {
	aclHs, err := listHeaders(root, "acl")
	if err != nil {
		return nil, err
	}
	halHs, err := listHeaders(root, "driver")
	if err != nil {
		return nil, err
	}
	var acl, hal []hconst
	for _, h := range aclHs {
		cs, err := scanHeader(root, h)
		if err != nil {
			return nil, err
		}
		acl = append(acl, cs...)
	}
	for _, h := range halHs {
		cs, err := scanHeader(root, h)
		if err != nil {
			return nil, err
		}
		hal = append(hal, cs...)
	}
	if err := probe(root, []string{"acl/acl.h", "acl/acl_rt_memory_soma.h", "acl/acl_prof.h"}, acl); err != nil {
		return nil, err
	}
	if err := probe(root, []string{"ascend_hal.h", "dsmi_common_interface.h"}, hal); err != nil {
		return nil, err
	}
	zacl, err := renderGoConsts(acl, "acl", isACLCode, "Code", "codeNames", map[string]bool{"ACL_SUCCESS": true})
	if err != nil {
		return nil, err
	}
	drvNames := map[string]bool{}
	for _, c := range hal {
		if c.Kind == "enum" && c.Enum == "drvError_t" {
			drvNames[c.Name] = true
		}
	}
	isDrv := func(c hconst) (typed, named bool) {
		if drvNames[c.Name] {
			return true, true
		}
		// Aliases such as DRV_ERROR_QUEUE_INNER_ERROR are drvError_t values
		// too, but the enumerator keeps the name.
		return c.Kind == "define" && drvNames[c.Body], false
	}
	zhal, err := renderGoConsts(hal, "driver", isDrv, "DrvCode", "drvCodeNames", nil)
	if err != nil {
		return nil, err
	}
	return map[string]string{"abi/zacl.go": zacl, "abi/zhal.go": zhal}, nil
}

// isACLCode tells whether an ACL constant is an aclError code: the static
// consts of acl_base_rt.h and everything in error_codes/.
func isACLCode(c hconst) (typed, named bool) {
	ok := strings.HasPrefix(c.Header, "acl/error_codes/") || (c.Kind == "static" && c.Header == "acl/acl_base_rt.h")
	return ok, ok
}

// renderGoConsts writes one z*.go file: a const block per header (typed
// constants get the code type) and the code → canonical name table. When
// several names share a value, a preferred name wins, else the first.
func renderGoConsts(cs []hconst, family string, isCode func(hconst) (bool, bool), codeType, tableName string, preferred map[string]bool) (string, error) {
	var b bytes.Buffer
	b.WriteString(genLineGo + "\n\n")
	fmt.Fprintf(&b, "package abi\n\nimport \"sync\"\n\n")
	header := ""
	canon := map[string]string{}
	var order []string
	for _, c := range cs {
		if c.Header != header {
			if header != "" {
				b.WriteString(")\n\n")
			}
			header = c.Header
			fmt.Fprintf(&b, "// Constants of %s (%s headers).\nconst (\n", strings.TrimPrefix(c.Header, "driver/"), family)
		}
		typed, named := isCode(c)
		if typed {
			fmt.Fprintf(&b, "\t%s %s = %s\n", c.Name, codeType, c.Value)
		} else {
			fmt.Fprintf(&b, "\t%s = %s\n", c.Name, c.Value)
		}
		if named {
			prev, seen := canon[c.Value]
			if !seen {
				order = append(order, c.Value)
			}
			if !seen || (preferred[c.Name] && !preferred[prev]) {
				canon[c.Value] = c.Name
			}
		}
	}
	if header != "" {
		b.WriteString(")\n\n")
	}
	// Built on first use (an error path), not by every process's init.
	fmt.Fprintf(&b, "// %s maps each %s value to its canonical C name (made on first use).\nvar %s = sync.OnceValue(func() map[%s]string {\n\treturn map[%s]string{\n", tableName, codeType, tableName, codeType, codeType)
	for _, v := range order {
		fmt.Fprintf(&b, "\t%s: %q,\n", canon[v], canon[v])
	}
	b.WriteString("}\n})\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return "", fmt.Errorf("%s constants: %w", family, err)
	}
	return string(src), nil
}
