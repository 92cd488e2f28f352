package main

import (
	"fmt"
	"strings"
)

// The ABI checks are built from the spec tables, never from our headers, so
// compiling them against emu/include proves the headers say what the spec
// says. One file serves C11 and C++11; the macros below pick the assertion
// form. C cannot fold a static const into a constant expression, so those
// values are checked in the C++ pass (C still checks their types).
const abiCheckPrologue = `
#include <stddef.h>
#ifdef __cplusplus
#include <type_traits>
#define ABI_ASSERT(c, m) static_assert(c, m)
#define ABI_ALIGNOF(t) alignof(t)
#define ABI_IS_TYPE(e, t) std::is_same<std::remove_cv<decltype(e)>::type, t>::value
#else
#define ABI_ASSERT(c, m) _Static_assert(c, m)
#define ABI_ALIGNOF(t) _Alignof(t)
#define ABI_IS_TYPE(e, t) _Generic((e), t: 1, default: 0)
#endif

/* Taking the address of a deprecated function is part of the check. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
`

// genABIChecks renders abi/testdata/zabi_acl.c and zabi_hal.c.
func genABIChecks(in *inputs) (string, string, error) {
	acl, err := abiCheckFile("ACL runtime headers",
		[]string{"acl/acl.h", "acl/acl_rt_memory_soma.h"}, in.aclConsts, in.aclTypes.Layouts, in.aclFuncs)
	if err != nil {
		return "", "", err
	}
	hal, err := abiCheckFile("driver HAL and DSMI headers",
		[]string{"ascend_hal.h", "dsmi_common_interface.h"}, in.halConsts, in.hal.Layouts, in.hal.Functions)
	if err != nil {
		return "", "", err
	}
	return acl, hal, nil
}

func abiCheckFile(what string, includes []string, consts []constant, layouts []layout, fns []function) (string, error) {
	var b strings.Builder
	b.WriteString(genLineC + "\n")
	fmt.Fprintf(&b, "/*\n * ABI checks of the %s against the spec tables: constant values\n * and types, struct sizes/alignments/offsets, function prototypes.\n */\n", what)
	b.WriteString(abiCheckPrologue + "\n")
	for _, inc := range includes {
		fmt.Fprintf(&b, "#include \"%s\"\n", inc)
	}
	b.WriteString("\n/* Constants. */\n")
	for _, c := range consts {
		lit, err := c.literal()
		if err != nil {
			return "", err
		}
		switch c.Kind {
		case "enum":
			// Enumerators are int in C and of the enum type in C++; compare
			// the values in a type wide enough for both.
			fmt.Fprintf(&b, "ABI_ASSERT((long long)(%s) == (long long)(%s), %q);\n", c.Name, lit, c.Name)
		case "#define":
			fmt.Fprintf(&b, "ABI_ASSERT((%s) == %s, %q);\n", c.Name, lit, c.Name)
			if t := c.cTypeName(); t != "" {
				// An enumerator behind a macro has enum type in C++.
				b.WriteString("#ifndef __cplusplus\n")
				fmt.Fprintf(&b, "ABI_ASSERT(ABI_IS_TYPE((%s), %s), %q);\n", c.Name, t, c.Name+" type")
				b.WriteString("#endif\n")
			}
		default: // static const
			b.WriteString("#ifdef __cplusplus\n")
			fmt.Fprintf(&b, "ABI_ASSERT(%s == %s, %q);\n", c.Name, lit, c.Name)
			b.WriteString("#endif\n")
			fmt.Fprintf(&b, "ABI_ASSERT(ABI_IS_TYPE(%s, %s), %q);\n", c.Name, c.CType, c.Name+" type")
		}
	}
	b.WriteString("\n/* Layouts. */\n")
	for _, l := range layouts {
		t := l.cType()
		fmt.Fprintf(&b, "ABI_ASSERT(sizeof(%s) == %d, %q);\n", t, l.Size, "sizeof "+t)
		if l.Align > 0 {
			fmt.Fprintf(&b, "ABI_ASSERT(ABI_ALIGNOF(%s) == %d, %q);\n", t, l.Align, "alignof "+t)
		}
		var fields []field
		for _, f := range l.Fields {
			if f.Members != nil {
				fields = append(fields, f.Members...)
				continue
			}
			fields = append(fields, f)
		}
		for _, f := range fields {
			fmt.Fprintf(&b, "ABI_ASSERT(offsetof(%s, %s) == %d, %q);\n", t, f.Name, f.Offset, "offsetof "+t+"."+f.Name)
			if f.Size >= 0 {
				fmt.Fprintf(&b, "ABI_ASSERT(sizeof(((%s *)0)->%s) == %d, %q);\n", t, f.Name, f.Size, "sizeof "+t+"."+f.Name)
			}
		}
	}
	// C: redeclaring with the spec's prototype is an error if the types are
	// incompatible. C++: the declared type must be exactly the spec's.
	b.WriteString("\n/* Prototypes. */\n#ifdef __cplusplus\n")
	for _, f := range fns {
		fmt.Fprintf(&b, "ABI_ASSERT((std::is_same<decltype(&%s), %s (*)(%s)>::value), %q);\n", f.Name, f.Return, f.cParams(), f.Name)
	}
	b.WriteString("#else\n")
	for _, f := range fns {
		ret := declHead(f.Return)
		fmt.Fprintf(&b, "%s%s(%s);\n", ret, f.Name, f.cParams())
	}
	b.WriteString("#endif\n")
	return b.String(), nil
}
