package main

import (
	"fmt"
	"sort"
	"strings"
)

// halHeaderSpec fixes file names, guards and includes of the driver headers
// (hal-api.md §1). Guards the spec does not name are ours. ascend_hal_dc.h
// and hal_pkg/buff_pkg.h are left out: the spec lists nothing in them.
var halHeaderSpec = []struct {
	path, guard, comment string
	includes             []string
}{
	{"ascend_hal.h", "__ASCEND_HAL_H__", "Umbrella header of the driver HAL (libascend_hal.so).",
		[]string{`"ascend_hal_define.h"`, `"ascend_hal_base.h"`, `"ascend_hal_external.h"`}},
	{"ascend_hal_base.h", "ASCEND_HAL_BASE_H", "HAL functions (memory, VMM, sharing, device information) and their types.",
		[]string{`"ascend_hal_define.h"`, `"ascend_hal_external.h"`}},
	{"ascend_hal_define.h", "__ASCEND_HAL_DEFINE_H__", "HAL macros, enums and structures (memory flag word, VMM, UVM, events).",
		[]string{"<stddef.h>", "<stdint.h>", "<stdbool.h>", `"ascend_hal_error.h"`, `"ascend_hal_pkg.h"`}},
	{"ascend_hal_error.h", "__ASCEND_HAL_ERROR_H__", "drvError_t: return codes of the hal and drv functions.", nil},
	{"ascend_hal_type.h", "__ASCEND_HAL_TYPE_H__", "Fixed-width integer aliases of the driver headers.", nil},
	{"ascend_hal_external.h", "ASCEND_EXTERNAL_H", "Buffer/queue constants shared with other driver components.",
		[]string{"<stddef.h>", "<stdbool.h>", "<stdint.h>", "<time.h>", "<sys/types.h>", `"ascend_hal_define.h"`}},
	{"ascend_hal_pkg.h", "__ASCEND_HAL_PKG_H__", "Umbrella of the hal_pkg/ headers.",
		[]string{`"ascend_hal_type.h"`, `"hal_pkg/esched_pkg.h"`, `"hal_pkg/trs_pkg.h"`, `"hal_pkg/dpa_pkg.h"`, `"hal_pkg/dms_pkg.h"`, `"hal_pkg/common_pkg.h"`}},
	{"hal_pkg/esched_pkg.h", "__HAL_PKG_ESCHED_PKG_H__", "Event-scheduler constants.", []string{"<stdint.h>"}},
	{"hal_pkg/trs_pkg.h", "__HAL_PKG_TRS_PKG_H__", "Task-resource (SQ/CQ) constants.", []string{"<stdint.h>"}},
	{"hal_pkg/dpa_pkg.h", "__HAL_PKG_DPA_PKG_H__", "Memory-side constants.", []string{"<stdint.h>"}},
	{"hal_pkg/dms_pkg.h", "__HAL_PKG_DMS_PKG_H__", "Device-management constants.", []string{"<stdint.h>"}},
	{"hal_pkg/common_pkg.h", "__HAL_PKG_COMMON_PKG_H__", "Memory access/handle types and DMA address structures.", []string{"<stddef.h>", "<stdint.h>"}},
	{"dsmi_common_interface.h", "__DSMI_COMMON_INTERFACE_H__", "DSMI device-management queries (libdrvdsmi_host.so).",
		[]string{"<stddef.h>", "<stdint.h>", `"ascend_hal_error.h"`, `"dms_device_node_type.h"`}},
	{"dms_device_node_type.h", "__DMS_DEVICE_NODE_TYPE_H__", "Device node types of the device-management service.", nil},
}

const halMarkers = `
#ifndef DLLEXPORT
#define DLLEXPORT __attribute__((visibility("default")))
#endif
#ifndef ASCEND_HAL_WEAK
#define ASCEND_HAL_WEAK __attribute__((weak))
#endif
#ifndef DV_ONLINE
#define DV_ONLINE
#endif
#ifndef DV_OFFLINE
#define DV_OFFLINE
#endif
#ifndef DV_OFF_ONLINE
#define DV_OFF_ONLINE
#endif
`

func halFuncDecl(f function) string {
	ret := declHead(f.Return)
	s := fmt.Sprintf("%s%s(%s);", ret, f.Name, f.cParams())
	if !f.NoExport {
		s = "DLLEXPORT " + s
	}
	if f.Weak {
		s = "ASCEND_HAL_WEAK " + s
	}
	return s
}

// genHALHeaders builds every header of emu/include/driver.
func genHALHeaders(consts []constant, spec *halSpec) (map[string]string, error) {
	hs := map[string]*cheader{}
	for _, s := range halHeaderSpec {
		hs[s.path] = &cheader{Path: s.path, Guard: s.guard, Comment: s.comment, Includes: s.includes}
	}
	hs["ascend_hal_base.h"].Prelude = halMarkers
	hs["dsmi_common_interface.h"].Prelude = halMarkers
	get := func(path string) (*cheader, error) {
		h, ok := hs[path]
		if !ok {
			return nil, fmt.Errorf("spec names unknown header %q", path)
		}
		return h, nil
	}
	for _, c := range consts {
		if c.Kind != "#define" {
			continue
		}
		h, err := get(c.Header)
		if err != nil {
			return nil, err
		}
		h.Defines = append(h.Defines, fmt.Sprintf("#define %s %s", c.Name, c.AsWritten))
	}
	keys, members, headerOf := groupEnums(consts)
	for _, k := range keys {
		h, err := get(headerOf[k])
		if err != nil {
			return nil, err
		}
		var td, tag string
		switch {
		case strings.HasPrefix(k, "(anonymous)"):
		case strings.HasPrefix(k, "enum "):
			tag = strings.TrimPrefix(k, "enum ")
		default:
			// Typedef'd enum: keep the spec's tag when it names one, else
			// reuse the typedef name so both spellings work.
			td, tag = k, k
			if t, ok := spec.EnumTags[k]; ok {
				tag = t
			}
		}
		h.Types = append(h.Types, cdecl{Provides: nonEmpty(td, tag), Text: enumDecl(td, tag, members[k])})
	}
	for _, t := range spec.Typedefs {
		h, err := get(t.Header)
		if err != nil {
			return nil, err
		}
		h.Types = append(h.Types, cdecl{Provides: []string{t.Name}, Text: t.Decl})
	}
	defined := map[string]bool{}
	for _, l := range spec.Layouts {
		h, err := get(l.Header)
		if err != nil {
			return nil, err
		}
		h.Types = append(h.Types, cdecl{Provides: nonEmpty(l.Typedef, l.Tag), Text: l.Decl()})
		if l.Tag != "" {
			defined[l.Tag] = true
		}
	}
	for _, f := range spec.Functions {
		h, err := get(f.Header)
		if err != nil {
			return nil, err
		}
		h.Funcs = append(h.Funcs, halFuncDecl(f))
	}
	// Structures that prototypes only point to and the spec does not lay
	// out are declared incomplete, so C does not scope them to the
	// parameter list.
	for _, path := range sortedKeys(hs) {
		h := hs[path]
		fwd := map[string]bool{}
		texts := append([]string{}, h.Funcs...)
		for _, t := range h.Types {
			texts = append(texts, t.Text)
		}
		for _, t := range texts {
			for _, r := range taggedRefs(t) {
				if r[0] == "struct" && !defined[r[1]] {
					fwd[r[1]] = true
				}
			}
		}
		var names []string
		for n := range fwd {
			names = append(names, n)
		}
		sort.Strings(names)
		var decls []cdecl
		for _, n := range names {
			decls = append(decls, cdecl{Text: "struct " + n + "; /* not laid out by the spec: incomplete */"})
		}
		h.Types = append(decls, h.Types...)
	}
	out := map[string]string{}
	for path, h := range hs {
		s, err := h.render()
		if err != nil {
			return nil, err
		}
		out[path] = s
	}
	return out, nil
}
