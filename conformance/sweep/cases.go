package sweep

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/npuemu/npuemu/abi"
)

// param is one parameter of a spec prototype.
type param struct {
	typ  string // C type without the name; arrays written as pointers
	name string
}

var paramRE = regexp.MustCompile(`^(.*?)\s*\b([A-Za-z_]\w*)\s*(\[[^\]]*\])?$`)

// parseParams splits a spec parameter list; ok is false for a list the
// sweep cannot call (variadic).
func parseParams(s string) ([]param, bool) {
	s = strings.TrimSpace(s)
	if s == "" || s == "(empty)" || s == "void" {
		return nil, true
	}
	var ps []param
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "..." {
			return nil, false
		}
		m := paramRE.FindStringSubmatch(p)
		if m == nil {
			return nil, false
		}
		t := strings.TrimSpace(m[1])
		if m[3] != "" {
			t += "*"
		}
		ps = append(ps, param{typ: t, name: m[2]})
	}
	return ps, true
}

// Type classes from GCC's __builtin_classify_type (the probe asks the
// compiler, so typedefs need no table here).
const (
	classInt    = 1
	classChar   = 2
	classEnum   = 3
	classBool   = 4
	classPtr    = 5
	classReal   = 8
	classRecord = 12
)

// typeInfo is what the probe learned about one parameter type.
type typeInfo struct {
	class int
	size  int
}

// value is one argument: a C expression and the label a report shows;
// badHandle marks a garbage, stale or wrong-kind handle.
type value struct {
	expr, label string
	badHandle   bool
}

// handleKinds maps an opaque handle type (const and spaces removed) to the
// C globals of the generated program holding a live and a stale handle of
// that kind ("" where the program cannot make one).
var handleKinds = map[string][2]string{
	"aclrtStream":        {"h_stream", "s_stream"},
	"aclrtEvent":         {"h_event", "s_event"},
	"aclrtContext":       {"h_ctx", "s_ctx"},
	"aclrtNotify":        {"h_notify", "s_notify"},
	"aclrtCntNotify":     {"h_cnt", "s_cnt"},
	"aclrtLabel":         {"h_label", "s_label"},
	"aclDataBuffer*":     {"h_databuf", "s_databuf"},
	"aclrtBinHandle":     {"h_bin", "s_bin"},
	"aclrtFuncHandle":    {"h_func", "s_func"},
	"aclrtArgsHandle":    {"h_args", "s_args"},
	"aclrtBinary":        {"h_binary", "s_binary"},
	"aclrtAllocatorDesc": {"h_adesc", "s_adesc"},
	"aclrtDrvMemHandle":  {"h_phys", "s_phys"},
	"aclmdlRI":           {"h_ri", "s_ri"},
	// Handles the program does not create: NULL by default, then garbage
	// and another kind's handle.
	"aclrtParamHandle":        {"", ""},
	"aclrtMbuf":               {"", ""},
	"aclrtLabelList":          {"", ""},
	"aclmdlRITask":            {"", ""},
	"aclmdlRICondHandle":      {"", ""},
	"aclrtTaskGrp":            {"", ""},
	"aclrtMemPool":            {"", ""},
	"aclrtStreamConfigHandle": {"", ""},
	"aclrtExceptionInfo*":     {"", ""},
	"drv_mem_handle_t*":       {"", ""},
}

func baseType(t string) string {
	t = regexp.MustCompile(`\bconst\b`).ReplaceAllString(t, "")
	t = strings.Join(strings.Fields(t), " ")
	return strings.ReplaceAll(t, " *", "*")
}

// isFuncPtr reports a callback typedef (by the naming the spec uses).
func isFuncPtr(t string) bool {
	return !strings.Contains(t, "*") && regexp.MustCompile(`(Callback|CallBack|Func|Hook)$`).MatchString(t)
}

func has(name string, words ...string) bool {
	n := strings.ToLower(name)
	for _, w := range words {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// callerMemParams are parameters of a handle type that are really caller
// memory the call initialises (aclrtKernelArgsInitByUserMem's argsHandle
// is a buffer of aclrtKernelArgsGetHandleMemSize bytes): a garbage pointer
// there is a wild pointer, so only NULL, a live buffer and a runtime
// handle (which is no memory) are passed.
var callerMemParams = map[string]bool{"aclrtKernelArgsInitByUserMem.argsHandle": true}

// argValues returns the default argument of p of function fn (first) and
// its bad values.
func argValues(fn string, p param, ti typeInfo) []value {
	t := p.typ
	bt := baseType(t)
	cast := func(e string) string { return "(" + t + ")(" + e + ")" }
	if callerMemParams[fn+"."+p.name] {
		return []value{{cast("hostbuf"), "hostbuf", false}, {cast("NULL"), "NULL", false}, {cast("h_stream"), "wrong-kind(stream)", false}}
	}
	switch ti.class {
	case classPtr:
		if hk, ok := handleKinds[bt]; ok {
			def := value{cast("NULL"), "NULL", false}
			if hk[0] != "" {
				def = value{cast(hk[0]), "valid", false}
			}
			vs := []value{def}
			if hk[0] != "" {
				vs = append(vs, value{cast("NULL"), "NULL", false})
			}
			vs = append(vs,
				value{cast("(uintptr_t)0x00005a5a5a5a5000ULL"), "garbage(unmapped)", true},
				value{cast("junkbuf"), "garbage(junk bytes)", true})
			if hk[1] != "" {
				vs = append(vs, value{cast(hk[1]), "stale", true})
			}
			other := "h_stream"
			if bt == "aclrtStream" {
				other = "h_event"
			}
			vs = append(vs, value{cast(other), "wrong-kind(" + strings.TrimPrefix(other, "h_") + ")", true})
			return vs
		}
		if isFuncPtr(bt) {
			return []value{{cast("NULL"), "NULL", false}}
		}
		if bt == "char*" && strings.Contains(t, "const") {
			return []value{{cast(`"npuemu"`), "string", false}, {cast("NULL"), "NULL", false}, {cast(`""`), "empty", false}}
		}
		def := value{cast("hostbuf"), "hostbuf", false}
		if bt == "void*" {
			def = value{cast("devbuf"), "devbuf", false}
		}
		return []value{def, {cast("NULL"), "NULL", false}}
	case classInt, classChar, classEnum, classBool:
		all := cast("~(unsigned long long)0")
		sign := cast("1ULL << (sizeof(" + t + ") * 8 - 1)")
		switch {
		case has(p.name, "timeout"):
			// -1 waits forever by definition; -2 is out of range.
			return []value{{cast("1"), "1", false}, {cast("-2"), "-2", false}}
		case has(p.name, "deviceid", "devid", "devindex") || p.name == "device" || p.name == "dev" || p.name == "deviceId" || has(p.name, "srcdev", "dstdev", "peerdev"):
			return []value{{cast("0"), "0", false}, {cast("-1"), "-1", false}, {cast("1 << 20"), "1<<20", false}}
		case has(p.name, "ptr", "addr") || p.name == "va" || p.name == "ptr":
			return []value{{cast("0"), "0", false}, {cast("0x00005a5a5a5a5000ULL"), "unmapped-address", false}, {all, "all-ones", false}}
		case ti.class != classEnum && has(p.name, "size", "len", "bytes", "max", "count", "num", "length", "cnt"):
			def := "64"
			if has(p.name, "count", "num", "cnt") && !has(p.name, "bytes", "size") {
				def = "1"
			}
			return []value{{cast(def), def, false}, {cast("0"), "0", false}, {all, "all-ones(SIZE_MAX)", false}, {sign, "sign-bit", false}}
		default:
			return []value{{cast("0"), "0", false}, {cast("-1"), "-1", false}, {cast("0x7fffffff"), "0x7fffffff", false}, {cast("1000"), "1000", false}}
		}
	case classReal:
		return []value{{cast("0"), "0", false}, {cast("__builtin_nan(\"\")"), "NaN", false}}
	default:
		return []value{{"(" + t + "){0}", "zero", false}}
	}
}

// Case is one generated call.
type Case struct {
	Index    int
	Function string
	Label    string // "param=value", or "defaults"
	// MustFail is set for a bad handle passed to a function that returns
	// an error code: it must not return success.
	MustFail bool
}

func (c Case) String() string { return c.Function + "(" + c.Label + ")" }

// callable returns the symbols the sweep calls: every ACL and HAL
// function whose prototype it can express (variadic ones are skipped).
func callable(only *regexp.Regexp) []abi.Symbol {
	var out []abi.Symbol
	for _, s := range abi.Symbols() {
		if s.Lib != "acl" && s.Lib != "hal" {
			continue
		}
		if only != nil && !only.MatchString(s.Name) {
			continue
		}
		if _, ok := parseParams(s.Params); !ok {
			continue
		}
		out = append(out, s)
	}
	return out
}

// paramTypes lists the distinct parameter types of syms, for the probe.
func paramTypes(syms []abi.Symbol) []string {
	seen := map[string]bool{}
	var ts []string
	for _, s := range syms {
		ps, _ := parseParams(s.Params)
		for _, p := range ps {
			if !seen[p.typ] {
				seen[p.typ] = true
				ts = append(ts, p.typ)
			}
		}
	}
	return ts
}

// headerIncludes are the #include lines for syms' headers.
func headerIncludes(syms []abi.Symbol) string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, h := range []string{"acl/acl.h", "ascend_hal.h"} {
		seen[h] = true
		fmt.Fprintf(&b, "#include %q\n", h)
	}
	for _, s := range syms {
		if s.Header != "" && !seen[s.Header] {
			seen[s.Header] = true
			fmt.Fprintf(&b, "#include %q\n", s.Header)
		}
	}
	return b.String()
}

// genProbe writes a C program printing "class size" for each type.
func genProbe(syms []abi.Symbol, types []string) []byte {
	var b bytes.Buffer
	b.WriteString("#include <stdio.h>\n#include <stdint.h>\n#include <stddef.h>\n")
	b.WriteString(headerIncludes(syms))
	b.WriteString("#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"\nint main(void) {\n")
	for _, t := range types {
		fmt.Fprintf(&b, "    printf(\"%%d %%zu\\n\", __builtin_classify_type((%s){0}), sizeof(%s));\n", t, t)
	}
	b.WriteString("    return 0;\n}\n")
	return b.Bytes()
}

// genCases builds the cases of syms and the C switch that runs them.
func genCases(syms []abi.Symbol, info map[string]typeInfo) ([]Case, []byte) {
	var cases []Case
	var b bytes.Buffer
	for _, s := range syms {
		ps, _ := parseParams(s.Params)
		vals := make([][]value, len(ps))
		for i, p := range ps {
			vals[i] = argValues(s.Name, p, info[p.typ])
		}
		emit := func(label string, args []string, bad bool) {
			i := len(cases)
			cases = append(cases, Case{Index: i, Function: s.Name, Label: label, MustFail: bad && codeReturn(s.Return)})
			call := fmt.Sprintf("F(%s)(%s)", s.Name, strings.Join(args, ", "))
			r := strings.TrimSpace(s.Return)
			switch {
			case r == "void":
				fmt.Fprintf(&b, "    case %d: %s; result(%d, 0); break;\n", i, call, i)
			case strings.HasSuffix(r, "*") || r == "aclrtBinary" || r == "aclrtAllocatorDesc":
				fmt.Fprintf(&b, "    case %d: result(%d, (long long)(uintptr_t)%s); break;\n", i, i, call)
			case r == "float" || r == "double":
				fmt.Fprintf(&b, "    case %d: result(%d, (long long)(%s != 0)); break;\n", i, i, call)
			default:
				fmt.Fprintf(&b, "    case %d: result(%d, (long long)%s); break;\n", i, i, call)
			}
		}
		defs := make([]string, len(ps))
		for i := range ps {
			defs[i] = vals[i][0].expr
		}
		emit("defaults", defs, false)
		for i, p := range ps {
			for _, v := range vals[i][1:] {
				args := append([]string(nil), defs...)
				args[i] = v.expr
				emit(p.name+"="+v.label, args, v.badHandle)
			}
		}
	}
	return cases, b.Bytes()
}

// codeReturn reports a return type that is an error code.
func codeReturn(r string) bool {
	switch strings.TrimSpace(r) {
	case "aclError", "drvError_t", "DVresult":
		return true
	}
	return false
}
