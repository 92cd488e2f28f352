// Command specgen turns the specification tables (../shared/spec) into the
// C headers of emu/include, the ABI checks of abi/testdata, the symbol list
// abi/zsymbols.go and, by compiling a probe against the headers it just
// wrote, the Go constants abi/zacl.go and abi/zhal.go. Go therefore sees
// exactly the values C sees. It must not read anything but the spec and its
// own outputs; it is run by `make generate`, and its outputs are committed.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	spec := flag.String("spec", "../shared/spec", "directory of the specification tables")
	out := flag.String("out", ".", "repository root to write into")
	flag.Parse()
	if err := generate(*spec, *out); err != nil {
		fmt.Fprintln(os.Stderr, "specgen:", err)
		os.Exit(1)
	}
}

// inputs is the parsed specification.
type inputs struct {
	aclFuncs  []function
	aclConsts []constant
	aclTypes  *aclTypes
	halConsts []constant
	hal       *halSpec
	profFuncs []function // prof.go
	profRows  []profRow
	rt        *rtSpec
}

func readInputs(specDir string) (*inputs, error) {
	var in inputs
	var err error
	if in.aclFuncs, err = parseACLFunctions(specDir); err != nil {
		return nil, err
	}
	if in.aclConsts, err = parseConstants(filepath.Join(specDir, "acl-constants.tsv")); err != nil {
		return nil, err
	}
	if in.aclTypes, err = parseACLTypes(specDir); err != nil {
		return nil, err
	}
	if in.halConsts, err = parseConstants(filepath.Join(specDir, "hal-constants.tsv")); err != nil {
		return nil, err
	}
	if in.hal, err = parseHALSpec(specDir); err != nil {
		return nil, err
	}
	if err = addHALPublic(in.hal); err != nil {
		return nil, err
	}
	if in.profFuncs, err = parseProfFunctions(specDir); err != nil {
		return nil, err
	}
	if in.rt, err = parseRTSpec(specDir); err != nil {
		return nil, err
	}
	if in.profRows, err = parseProfConstants(specDir); err != nil {
		return nil, err
	}
	return &in, nil
}

// generate writes every output under outDir (the repository root).
func generate(specDir, outDir string) error {
	in, err := readInputs(specDir)
	if err != nil {
		return err
	}
	files := map[string]string{}
	acl, err := genACLHeaders(in.aclFuncs, in.aclConsts, in.aclTypes)
	if err != nil {
		return err
	}
	for p, s := range acl {
		files[filepath.Join("emu/include", p)] = s
	}
	hal, err := genHALHeaders(in.halConsts, in.hal)
	if err != nil {
		return err
	}
	for p, s := range hal {
		files[filepath.Join("emu/include/driver", p)] = s
	}
	for p, s := range genProfHeaders(in.profFuncs, in.profRows) {
		files[p] = s
	}
	rt, err := genRTHeaders(in.rt)
	if err != nil {
		return err
	}
	for p, s := range rt {
		files[filepath.Join("emu/include", p)] = s
	}
	if files["abi/testdata/zabi_rt.c"], err = genRTABICheck(in.rt); err != nil {
		return err
	}
	drvRows, drvOther, err := parseDrvMap(specDir)
	if err != nil {
		return err
	}
	if files["abi/zrterr.go"], err = genDrvMap(drvRows, drvOther); err != nil {
		return err
	}
	syms, err := genSymbols(append(append([]function(nil), in.aclFuncs...), in.profFuncs...), in.hal.Functions, in.rt.Funcs)
	if err != nil {
		return err
	}
	files["abi/zsymbols.go"] = syms
	if files["abi/zsocsupport.go"], err = genSoCSupport(specDir); err != nil {
		return err
	}
	aclCheck, halCheck, err := genABIChecks(in)
	if err != nil {
		return err
	}
	files["abi/testdata/zabi_acl.c"] = aclCheck
	files["abi/testdata/zabi_hal.c"] = halCheck
	if err := writeFiles(outDir, files); err != nil {
		return err
	}
	// The Go constants come from the headers just written, not from the
	// tables: a probe program compiled against them prints every value.
	consts, err := genGoConsts(filepath.Join(outDir, "emu/include"))
	if err != nil {
		return err
	}
	rtConsts, err := genRTGoConsts(filepath.Join(outDir, "emu/include"), goConstValues(consts))
	if err != nil {
		return err
	}
	consts["abi/zrt.go"] = rtConsts["abi/zrt.go"]
	return writeFiles(outDir, consts)
}

func writeFiles(root string, files map[string]string) error {
	for _, rel := range sortedKeys(files) {
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(files[rel]), 0o644); err != nil {
			return err
		}
	}
	return nil
}
