package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// function is one exported C function of the spec (ACL or HAL/DSMI).
type function struct {
	Name       string
	Lib        string // "acl", "hal", "dsmi"
	Header     string // path under emu/include (acl/acl_rt.h, ascend_hal_base.h, ...)
	Area       string
	Return     string
	Params     string // as the spec writes it ("(empty)" and "void" kept)
	Deprecated string // deprecation message, "" when not deprecated
	Weak       bool   // HAL: declared ASCEND_HAL_WEAK
	NoExport   bool   // HAL: declared without DLLEXPORT in the vendor header
}

// cParams is the parameter list as written between the parentheses of the
// declaration: "(empty)" means empty parentheses.
func (f function) cParams() string {
	if f.Params == "(empty)" {
		return ""
	}
	return f.Params
}

// constant is one row of acl-constants.tsv / hal-constants.tsv.
type constant struct {
	Header    string
	Kind      string // "#define", "enum", "static const int", "static const uint32_t"
	EnumType  string
	Name      string
	Value     string // decimal as the compiler printed it
	Hex       string
	CType     string
	AsWritten string
}

func readTSV(path string, wantCols int) ([][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if i == 0 || line == "" {
			continue // header row
		}
		cols := strings.Split(line, "\t")
		if len(cols) < wantCols {
			return nil, fmt.Errorf("%s:%d: %d columns, want %d", filepath.Base(path), i+1, len(cols), wantCols)
		}
		rows = append(rows, cols)
	}
	return rows, nil
}

// parseACLFunctions reads acl-functions.tsv.
func parseACLFunctions(specDir string) ([]function, error) {
	rows, err := readTSV(filepath.Join(specDir, "acl-functions.tsv"), 6)
	if err != nil {
		return nil, err
	}
	var fns []function
	for _, r := range rows {
		dep := r[5]
		if dep == "-" {
			dep = ""
		}
		fns = append(fns, function{
			Name: r[3], Lib: "acl", Header: r[0], Area: r[1],
			Return: strings.TrimSpace(r[2]), Params: strings.TrimSpace(r[4]), Deprecated: dep,
		})
	}
	return fns, nil
}

// parseConstants reads acl-constants.tsv or hal-constants.tsv.
func parseConstants(path string) ([]constant, error) {
	rows, err := readTSV(path, 8)
	if err != nil {
		return nil, err
	}
	var cs []constant
	for _, r := range rows {
		cs = append(cs, constant{Header: r[0], Kind: r[1], EnumType: r[2], Name: r[3],
			Value: r[4], Hex: r[5], CType: r[6], AsWritten: r[7]})
	}
	return cs, nil
}

// literal renders the constant's value as a C literal of its c_type, so a
// comparison in C happens in the type the spec says (unsigned wrap-around of
// negative printed values included).
func (c constant) literal() (string, error) {
	v, err := strconv.ParseInt(c.Value, 10, 64)
	if err != nil {
		u, uerr := strconv.ParseUint(c.Value, 10, 64)
		if uerr != nil {
			return "", fmt.Errorf("%s: bad value %q", c.Name, c.Value)
		}
		return fmt.Sprintf("%dULL", u), nil
	}
	typ := strings.TrimSuffix(c.CType, " (enumerator)")
	switch typ {
	case "int":
		if v == -2147483648 {
			return "(-2147483647 - 1)", nil
		}
		if v < 0 {
			return fmt.Sprintf("(%d)", v), nil
		}
		return fmt.Sprintf("%d", v), nil
	case "unsigned int":
		return fmt.Sprintf("%dU", uint32(v)), nil
	case "unsigned long":
		return fmt.Sprintf("%dUL", uint64(v)), nil
	case "unsigned long long":
		return fmt.Sprintf("%dULL", uint64(v)), nil
	}
	return "", fmt.Errorf("%s: unknown c_type %q", c.Name, c.CType)
}

// cTypeName is the C type of the constant's expression ("" for enumerators,
// whose type differs between C and C++).
func (c constant) cTypeName() string {
	if strings.HasSuffix(c.CType, "(enumerator)") {
		return ""
	}
	return c.CType
}
