package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
)

const (
	shimsFile = "zshims.c"
	caseFile  = "zunsupported.c"
)

// shimLibs are the libraries whose symbols libfake defines. DSMI belongs to
// libdrvdsmi_host.so, a plain-C library built from dcmi/ (one source of
// truth with libdcmi.so), so libfake defines no dsmi_* symbol.
var shimLibs = map[string]bool{"acl": true, "hal": true, "rt": true}

// cOnly are symbols written by hand in libfake's C files because Go cannot
// export them (variadic); shimgen emits nothing for them and they count as
// implemented.
var cOnly = map[string]string{
	"aclAppLog": "applog.c",
}

// handleTypes are typedefs of pointers that appear as return types; their
// failure value is NULL.
var handleTypes = map[string]bool{
	"aclrtBinary":        true,
	"aclrtAllocatorDesc": true,
}

// codeTypes are return types that carry an error code; the failure value
// is the support table's code.
var codeTypes = map[string]bool{
	"aclError":   true,
	"drvError_t": true,
	"DVresult":   true,
	"rtError_t":  true,
}

// numberTypes are return types whose failure value is 0.
var numberTypes = map[string]bool{
	"float": true, "double": true, "aclFloat16": true,
	"int": true, "unsigned int": true, "size_t": true,
	"int32_t": true, "uint32_t": true, "int64_t": true, "uint64_t": true,
	"uint16_t": true, "UINT32": true, "UINT64": true,
}

type output struct {
	shims, unsupported, guards, front []byte
	mirrors                           []byte            // zmirrors.go (mirrors.go)
	mirrorTypes                       map[string][]byte // package → its zmirrors.go (mirrortypes.go)
}

// generate builds both files from abi.Symbols and the exports in libDir.
func generate(libDir string) (output, error) {
	exp, err := scanExports(libDir)
	if err != nil {
		return output{}, err
	}
	shims, err := genShims(abi.Symbols(), exp)
	if err != nil {
		return output{}, err
	}
	cas, err := genUnsupported(abi.Symbols(), exp)
	if err != nil {
		return output{}, err
	}
	goExp, err := scanGoExports(libDir)
	if err != nil {
		return output{}, err
	}
	for name := range exp {
		if _, ok := goExp[name]; !ok {
			return output{}, fmt.Errorf("npu_%s: //export line found but no function declaration with it as its doc comment", name)
		}
	}
	guards, err := genGuards(abi.Symbols(), goExp)
	if err != nil {
		return output{}, err
	}
	front, err := genFront(abi.Symbols())
	if err != nil {
		return output{}, err
	}
	pairs, err := scanMirrors(libDir)
	if err != nil {
		return output{}, err
	}
	var picked []abi.Symbol
	for _, s := range abi.Symbols() {
		if shimLibs[s.Lib] {
			picked = append(picked, s)
		}
	}
	mirrors, err := genMirrors(pairs, headers(picked))
	if err != nil {
		return output{}, err
	}
	types, err := genMirrorTypes(filepath.Join(libDir, ".."), libDir, pairs, headers(picked))
	if err != nil {
		return output{}, err
	}
	return output{shims: shims, unsupported: cas, guards: guards, front: front, mirrors: mirrors, mirrorTypes: types}, nil
}

var exportRE = regexp.MustCompile(`(?m)^//export npu_(\w+)\s*$`)

// scanExports returns the names X of every `//export npu_X` in dir/*.go.
func scanExports(dir string) (map[string]bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	exp := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, m := range exportRE.FindAllSubmatch(src, -1) {
			exp[string(m[1])] = true
		}
	}
	return exp, nil
}

// implemented reports whether libfake implements s (a Go export or C code).
func implemented(s abi.Symbol, exp map[string]bool) bool {
	return exp[s.Name] || cOnly[s.Name] != ""
}

// param is one parameter of a prototype.
type param struct {
	typ   string // as declared, without the name ("const void*")
	name  string
	array bool // declared as name[]
}

var paramRE = regexp.MustCompile(`^(.*?)\s*\b([A-Za-z_]\w*)\s*(\[[^\]]*\])?$`)

// parseParams splits the params column of the spec into parameters.
func parseParams(s string) (ps []param, variadic bool, err error) {
	s = strings.TrimSpace(s)
	if s == "(empty)" || s == "void" || s == "" {
		return nil, false, nil
	}
	if strings.ContainsAny(s, "()") {
		return nil, false, fmt.Errorf("parameters %q: function-pointer parameters need a typedef", s)
	}
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "..." {
			variadic = true
			continue
		}
		m := paramRE.FindStringSubmatch(p)
		if m == nil || strings.TrimSpace(m[1]) == "" || isTypeWord(m[2]) {
			return nil, false, fmt.Errorf("parameter %q: want a type and a name", p)
		}
		ps = append(ps, param{typ: strings.TrimSpace(m[1]), name: m[2], array: m[3] != ""})
	}
	return ps, variadic, nil
}

// isTypeWord reports a trailing word that cannot be a parameter name, as in
// an unnamed "const char*" or "unsigned int".
func isTypeWord(w string) bool {
	switch w {
	case "const", "int", "char", "void", "long", "short", "unsigned", "signed", "float", "double":
		return true
	}
	return false
}

var constRE = regexp.MustCompile(`\bconst\b`)

// stripConst removes every const qualifier: the type a Go export sees.
func stripConst(t string) string {
	t = constRE.ReplaceAllString(t, "")
	t = strings.Join(strings.Fields(t), " ")
	return strings.ReplaceAll(t, " *", "*")
}

// forward is the argument expression passing p to the Go export: a pointer
// to const data is cast to the non-const pointer cgo declares, so the call
// compiles without warnings. A const pointer value ("T* const") or a const
// scalar passes unchanged.
func (p param) forward() string {
	star := strings.LastIndex(p.typ, "*")
	if p.array || star < 0 || !constRE.MatchString(p.typ[:star]) {
		return p.name
	}
	return "(" + stripConst(p.typ) + ")" + p.name
}

// zero is an argument expression of p's type with value zero/NULL.
func (p param) zero() string {
	t := p.typ
	if p.array {
		t += "*"
	}
	return "(" + t + "){0}"
}

// failureBody is the body of an unsupported shim of s, calling unsupported.
func failureBody(s abi.Symbol, call string) (string, error) {
	r := strings.TrimSpace(s.Return)
	switch {
	case r == "void":
		return "    " + call + ";\n", nil
	case codeTypes[r] || (r == "int" && s.Lib == "dsmi"):
		return fmt.Sprintf("    return (%s)%s;\n", r, call), nil
	case strings.HasSuffix(r, "*") || handleTypes[r]:
		return "    " + call + ";\n    return NULL;\n", nil
	case r == "bool":
		return "    " + call + ";\n    return false;\n", nil
	case numberTypes[r]:
		return "    " + call + ";\n    return 0;\n", nil
	}
	return "", fmt.Errorf("%s: no failure value for return type %q (add it to shimgen's type tables)", s.Name, r)
}

// definition is the prototype of s as a definition: the spec's parameter
// list, with "()" written "(void)" (the same prototype in a definition).
func definition(s abi.Symbol) string {
	ps := strings.TrimSpace(s.Params)
	if ps == "(empty)" || ps == "" {
		ps = "void"
	}
	return fmt.Sprintf("NPU_EXPORT %s %s(%s)", strings.TrimSpace(s.Return), s.Name, ps)
}

// headers lists the distinct headers of syms in first-seen order.
func headers(syms []abi.Symbol) []string {
	seen := map[string]bool{}
	var hs []string
	for _, s := range syms {
		if s.Header != "" && !seen[s.Header] {
			seen[s.Header] = true
			hs = append(hs, s.Header)
		}
	}
	return hs
}

// genShims writes zshims.c.
func genShims(syms []abi.Symbol, exp map[string]bool) ([]byte, error) {
	var picked []abi.Symbol
	for _, s := range syms {
		if shimLibs[s.Lib] {
			picked = append(picked, s)
		}
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by shimgen from abi.Symbols and the libfake exports; DO NOT EDIT.\n\n")
	b.WriteString("/* zshims.c: the C definition of every exported ACL and HAL symbol, with the\n" +
		" * prototype of our headers. In the emulator a shim calls emu_<symbol>: the\n" +
		" * Go export npu_<symbol> through its guard npug_<symbol> when there is one, npu_unsupported with the\n" +
		" * symbol's index in abi.Symbols() otherwise. When npu_hooks is set\n" +
		" * (passthrough.h) it calls hook_<symbol> instead, which forwards to the\n" +
		" * vendor's function npu_pt_fns[index] in passthrough mode and writes the\n" +
		" * call's trace line (trace.h). Regenerate with `make generate`. */\n\n")
	b.WriteString("#include <stdbool.h>\n#include <stddef.h>\n\n")
	for _, h := range headers(picked) {
		fmt.Fprintf(&b, "#include %q\n", h)
	}
	b.WriteString("\n#include \"npu.h\"\n#include \"passthrough.h\"\n#include \"stack.h\"\n#include \"stack_route.h\"\n#include \"trace.h\"\n#include \"_cgo_export.h\"\n\n")
	b.WriteString("/* The forwarders name deprecated functions too. */\n")
	b.WriteString("#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"\n")
	if err := genTable(&b, syms); err != nil {
		return nil, err
	}
	genRouteTable(&b)
	var skipped []string
	for i, s := range syms {
		if !shimLibs[s.Lib] {
			continue
		}
		if f := cOnly[s.Name]; f != "" {
			skipped = append(skipped, fmt.Sprintf("%s (%s)", s.Name, f))
			continue
		}
		if err := genShim(&b, i, s, exp[s.Name]); err != nil {
			return nil, err
		}
	}
	if len(skipped) > 0 {
		sort.Strings(skipped)
		fmt.Fprintf(&b, "\n/* Written in C by hand: %s. */\n", strings.Join(skipped, ", "))
	}
	return b.Bytes(), nil
}

// libCodes are the NPU_LIB_* values of passthrough.h.
// rt* symbols are looked up through the vendor's ACL library, whose
// namespace holds its libruntime.so.
var libCodes = map[string]string{"acl": "NPU_LIB_ACL", "hal": "NPU_LIB_HAL", "rt": "NPU_LIB_ACL"}

// writeNames writes the C array cname: one NUL, then every non-empty name
// of the n name(i), each ended by a NUL. It returns each name's offset in
// the array (0 for ""). The tables of names use these offsets, not
// pointers: a pointer in a table is a relocation the loader applies, and
// a data page it copies, at every process start.
func writeNames(b *bytes.Buffer, cname string, count int, name func(i int) string) []uint32 {
	offs := make([]uint32, count)
	fmt.Fprintf(b, "const char %s[] =\n    \"\\0\"", cname)
	off := uint32(1)
	for i := range count {
		n := name(i)
		if n == "" {
			continue
		}
		offs[i] = off
		fmt.Fprintf(b, "\n    \"%s\\0\"", n)
		off += uint32(len(n)) + 1
	}
	b.WriteString(";\n")
	return offs
}

// genTable writes npu_pt_syms, the name and library of every symbol by its
// index in abi.Symbols, and npu_pt_fns, the vendor's functions by index.
func genTable(b *bytes.Buffer, syms []abi.Symbol) error {
	b.WriteString("\n/* Every symbol of abi.Symbols() by index: passthrough.c resolves each name in\n" +
		" * the vendor library of its lib into npu_pt_fns (npu_pt_name). */\n")
	offs := writeNames(b, "npu_pt_names", len(syms), func(i int) string { return syms[i].Name })
	b.WriteString("const npu_pt_sym npu_pt_syms[] = {\n")
	for i, s := range syms {
		lib := libCodes[s.Lib]
		if lib == "" || !shimLibs[s.Lib] {
			lib = "NPU_LIB_OTHER"
		}
		fmt.Fprintf(b, "    {%d, %s},\n", offs[i], lib)
	}
	b.WriteString("};\n")
	fmt.Fprintf(b, "const int npu_pt_nsyms = %d;\n", len(syms))
	idx := func(name string) int {
		for i, s := range syms {
			if s.Name == name {
				return i
			}
		}
		return -1
	}
	fmt.Fprintf(b, "const int npu_pt_idx_recent = %d, npu_pt_idx_applog = %d;\n", idx("aclGetRecentErrMsg"), idx("aclAppLog"))
	fmt.Fprintf(b, "void *npu_pt_fns[%d];\n", len(syms))
	return nil
}

// inputString reports a parameter the trace shows as a string: a pointer
// to const char is read by the callee, never written.
func (p param) inputString() bool {
	t := strings.ReplaceAll(p.typ, " ", "")
	return !p.array && (t == "constchar*" || t == "constchar*const" || t == "charconst*")
}

// ptFailure is the expression a hook returns when the vendor's function is
// missing: npu_pt_fail records why and gives the code; other return types
// get their failure value.
func ptFailure(s abi.Symbol, idx int) (string, error) {
	r := strings.TrimSpace(s.Return)
	call := fmt.Sprintf("npu_pt_fail(%d)", idx)
	switch {
	case r == "void":
		return call, nil
	case codeTypes[r] || (r == "int" && s.Lib == "dsmi"):
		return fmt.Sprintf("(%s)%s", r, call), nil
	case strings.HasSuffix(r, "*") || handleTypes[r]:
		return fmt.Sprintf("((void)%s, (%s)NULL)", call, r), nil
	case r == "bool":
		return fmt.Sprintf("((void)%s, false)", call), nil
	case numberTypes[r]:
		return fmt.Sprintf("((void)%s, (%s)0)", call, r), nil
	}
	return "", fmt.Errorf("%s: no failure value for return type %q (add it to shimgen's type tables)", s.Name, r)
}

// genShim writes the three functions of symbol s (index idx): emu_ (the
// emulator's body), hook_ (passthrough and trace) and the exported shim,
// whose only addition to the emulator path is the test of npu_hooks.
func genShim(b *bytes.Buffer, idx int, s abi.Symbol, exported bool) error {
	ps, variadic, err := parseParams(s.Params)
	if err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	if variadic {
		return fmt.Errorf("%s is variadic: Go cannot export it; write it in C and list it in cOnly", s.Name)
	}
	ret := strings.TrimSpace(s.Return)
	void := ret == "void"
	params := strings.TrimSpace(s.Params)
	if params == "(empty)" || params == "" {
		params = "void"
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.name
	}
	args := strings.Join(names, ", ")

	// emu_: what the shim did before passthrough existed. A routed ACL
	// symbol's body is emu_direct_, called by emu_ when the route is not
	// taken and by the route's thunk when it comes back (route.go).
	r, slot, routed := routeOf(s.Name)
	routed = routed && exported
	emu := "emu_" + s.Name
	if routed {
		emu = "emu_direct_" + s.Name
	}
	fmt.Fprintf(b, "\nstatic inline %s %s(%s) {\n", ret, emu, params)
	if routeTarget(s.Name) {
		b.WriteString(routeTake(idx))
	}
	if exported {
		fwd := []string{"npu_self()"}
		for _, p := range ps {
			fwd = append(fwd, p.forward())
		}
		// npug_ is the export's guard (zguard.go): panics become codes.
		call := fmt.Sprintf("npug_%s(%s)", s.Name, strings.Join(fwd, ", "))
		if void {
			fmt.Fprintf(b, "    %s;\n}\n", call)
		} else {
			fmt.Fprintf(b, "    return %s;\n}\n", call)
		}
	} else {
		for _, p := range ps {
			fmt.Fprintf(b, "    (void)%s;\n", p.name)
		}
		body, err := failureBody(s, fmt.Sprintf("npu_unsupported(npu_self(), %d)", idx))
		if err != nil {
			return err
		}
		b.WriteString(body)
		b.WriteString("}\n")
	}

	if routed {
		b.WriteString(routeThunk(s, slot, ps))
		fmt.Fprintf(b, "\nstatic inline %s emu_%s(%s) {\n", ret, s.Name, params)
		b.WriteString(routeCheck(r, slot, ps))
		fmt.Fprintf(b, "    return emu_direct_%s(%s);\n}\n", s.Name, args)
	}

	// hook_: passthrough or emulator, then the trace line.
	fail, err := ptFailure(s, idx)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "\nstatic NPU_HOOK %s hook_%s(%s) {\n", ret, s.Name, params)
	b.WriteString("    npu_call c;\n    npu_call_begin(&c);\n")
	vendor := fmt.Sprintf("((__typeof__(&%s))npu_pt_fns[%d])(%s)", s.Name, idx, args)
	if void {
		fmt.Fprintf(b, "    if (!npu_pt_on)\n        emu_%s(%s);\n", s.Name, args)
		fmt.Fprintf(b, "    else if (npu_pt_fns[%d] != NULL)\n        %s;\n", idx, vendor)
		fmt.Fprintf(b, "    else\n        %s;\n", fail)
	} else {
		fmt.Fprintf(b, "    %s r;\n", ret)
		fmt.Fprintf(b, "    if (!npu_pt_on)\n        r = emu_%s(%s);\n", s.Name, args)
		fmt.Fprintf(b, "    else if (npu_pt_fns[%d] != NULL)\n        r = %s;\n", idx, vendor)
		fmt.Fprintf(b, "    else\n        r = %s;\n", fail)
	}
	b.WriteString("    if (c.trace) {\n")
	fmt.Fprintf(b, "        npu_tr *t = npu_tr_start(&c, %d);\n", idx)
	for _, p := range ps {
		if p.inputString() {
			fmt.Fprintf(b, "        npu_tr_str(t, %q, %s);\n", p.name, p.name)
		} else if p.array {
			// An array parameter is a pointer whose sizeof the compiler warns about.
			fmt.Fprintf(b, "        npu_tr_ptr(t, %q, %s);\n", p.name, p.name)
		} else {
			fmt.Fprintf(b, "        NPU_TR_ARG(t, %q, %s);\n", p.name, p.name)
		}
	}
	if !void {
		b.WriteString("        NPU_TR_RET(t, r);\n")
	}
	b.WriteString("        npu_tr_finish(t, &c);\n    }\n")
	if s.Name == "aclFinalize" {
		b.WriteString("    /* A program may leave through _exit after aclFinalize. */\n    npu_tr_flush();\n")
	}
	if !void {
		b.WriteString("    return r;\n")
	}
	b.WriteString("}\n")

	// The exported shim.
	fmt.Fprintf(b, "\n%s {\n", definition(s))
	if void {
		fmt.Fprintf(b, "    if (__builtin_expect(npu_hooks != 0, 0)) {\n        hook_%s(%s);\n        return;\n    }\n", s.Name, args)
		fmt.Fprintf(b, "    emu_%s(%s);\n}\n", s.Name, args)
	} else {
		fmt.Fprintf(b, "    if (__builtin_expect(npu_hooks != 0, 0))\n        return hook_%s(%s);\n", s.Name, args)
		fmt.Fprintf(b, "    return emu_%s(%s);\n}\n", s.Name, args)
	}
	return nil
}

// genUnsupported writes the conformance case that calls every unsupported
// ACL function returning aclError with zero arguments and checks the
// support table's code and a non-empty aclGetRecentErrMsg.
func genUnsupported(syms []abi.Symbol, exp map[string]bool) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by shimgen from the ACL support table; DO NOT EDIT.\n\n")
	b.WriteString("/* zunsupported.c: every ACL function npuemu does not implement fails with\n" +
		" * the code of its support-table entry (`npuemu compat`) and leaves a message\n" +
		" * for aclGetRecentErrMsg, even with zero/NULL arguments and before aclInit.\n" +
		" * The table is npuemu's own, so on another target the case skips. */\n")
	b.WriteString("#define _GNU_SOURCE\n#include <dlfcn.h>\n\n#include \"check.h\"\n")
	var aclSyms []abi.Symbol
	for _, s := range syms {
		if s.Lib == "acl" {
			aclSyms = append(aclSyms, s)
		}
	}
	// acl.h (from check.h) leaves out some headers, e.g. acl_rt_memory_soma.h.
	for _, h := range headers(aclSyms) {
		fmt.Fprintf(&b, "#include %q\n", h)
	}
	b.WriteString("\n")
	b.WriteString("/* Deprecated functions are called on purpose. */\n")
	b.WriteString("#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"\n\n")
	b.WriteString("int main(void) {\n")
	b.WriteString("    if (dlsym(RTLD_DEFAULT, \"npu_unsupported\") == NULL)\n")
	b.WriteString("        SKIP(\"the unsupported-symbol table is npuemu's; the target is not npuemu\");\n")
	n := 0
	for _, s := range syms {
		if s.Lib != "acl" || implemented(s, exp) || strings.TrimSpace(s.Return) != "aclError" {
			continue
		}
		e, ok := acl.SupportOf(s.Name)
		if !ok || e.Status != abi.Unsupported {
			// The support table disagrees with the exports; the consistency
			// test reports it. No expectation can be generated.
			continue
		}
		ps, _, err := parseParams(s.Params)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		args := make([]string, len(ps))
		for i, p := range ps {
			args[i] = p.zero()
		}
		fmt.Fprintf(&b, "    CHECK_ERR(%s(%s), %s);\n", s.Name, strings.Join(args, ", "), codeName(e.Code))
		n++
	}
	fmt.Fprintf(&b, "    printf(\"%%d unsupported ACL functions checked\\n\", %d);\n", n)
	b.WriteString("    return 0;\n}\n")
	return b.Bytes(), nil
}

// codeName is the C name of an aclError code for the generated case.
func codeName(code int32) string {
	if c := abi.Code(code); c.Known() {
		return c.Name()
	}
	return fmt.Sprint(code)
}
